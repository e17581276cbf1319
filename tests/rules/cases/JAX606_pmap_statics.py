# `jax.pmap`'s `static_broadcasted_argnums` hashes the arguments it names, as `jit`'s static
# arguments do: a list there raises (measured with JAX 0.10.2 on 8 forced CPU devices:
# `ValueError: Non-hashable static arguments are not supported`). A tuple is fine.
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402


def local_loss(w, batch, layer_sizes):
    h = batch
    for _ in layer_sizes:
        h = jnp.tanh(h @ w)
    return jnp.mean(h**2)


def inputs():
    n = jax.device_count()
    return jnp.broadcast_to(jnp.eye(4) * 0.5, (n, 4, 4)), jnp.ones((n, 2, 4))


def failing():
    w, batch = inputs()
    return jax.pmap(local_loss, static_broadcasted_argnums=2)(w, batch, [16, 16, 8])  # error: JAX606


# near misses


def main():
    w, batch = inputs()
    return jax.pmap(local_loss, static_broadcasted_argnums=2)(w, batch, (16, 16, 8))


if __name__ == "__main__":
    import sys

    assert main().shape == (jax.device_count(),)
    try:
        failing()
    except ValueError:
        pass
    else:
        sys.exit("a list was taken as a static broadcasted argument")
    print("ok")

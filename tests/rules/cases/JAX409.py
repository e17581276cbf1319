# An axis name exists only inside a transformation that binds it: a collective naming an axis
# its `vmap`/`pmap` never binds raises `NameError` ("unbound axis name: i"), measured with JAX
# 0.10.2 (pmap on 4 forced host devices). `axis_name` binds it, by keyword or by position.
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

from functools import partial  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402


def center(x):
    return x - jax.lax.pmean(x, "i")  # error: JAX409


def allreduce(g):
    return jax.lax.psum(g, axis_name="batch")  # error: JAX409


@jax.pmap
def step(w):
    return w - 0.1 * allreduce(w)


def centered_batch():
    return jax.vmap(center)(jnp.ones((4, 3)))


# near misses


def normalize(x):
    return x / jax.lax.psum(x, "i")


def ranked(x):
    return x + jax.lax.axis_index("d")


@partial(jax.pmap, axis_name="d")
def ranked_step(x):
    return x + jax.lax.axis_index("d")


def named_batches():
    x = jnp.ones((4, 3))
    return (
        jax.vmap(normalize, axis_name="i")(x),
        jax.pmap(ranked, "d")(jnp.ones(4)),
        ranked_step(jnp.ones(4)),
        jax.vmap(jax.vmap(normalize), axis_name="i")(jnp.ones((2, 4))),
    )


if __name__ == "__main__":
    print(named_batches())
    for failing in (centered_batch, lambda: step(jnp.ones((4, 3)))):
        try:
            failing()
        except NameError as error:
            print("NameError:", str(error)[:40])
        else:
            raise AssertionError("expected NameError")

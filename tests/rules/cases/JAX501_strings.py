# A traced parameter compared with a string holds a Python string: jit cannot take it as a
# traced argument at all (`TypeError` at the call), so it must be static; `jnp.where` cannot help.
# Where a call in sight passes the string, JAX611 reports it at that call, where JAX raises.
from functools import partial

import jax
import jax.numpy as jnp


def activate(x, kind):
    return jax.nn.relu(x) if kind == "relu" else jnp.tanh(x)


@jax.jit
def normalise(x, mode):
    if mode in ("l1", "l2"):
        return x / jnp.linalg.norm(x)
    return x


@jax.jit
def clipped(x, how):
    if how == "hard":  # error: JAX501
        return jnp.clip(x, -1.0, 1.0)
    return jnp.tanh(x)


@partial(jax.jit, static_argnames=("mode",))
def scaled(x, mode):
    if mode == "double":  # static: a Python string
        return x * 2.0
    return x


if __name__ == "__main__":
    x = jnp.ones(3)
    for call in (lambda: jax.jit(activate)(x, "relu"), lambda: normalise(x, "l2")):  # error: JAX611
        try:
            call()
        except TypeError:
            pass
        else:
            raise AssertionError("expected TypeError")
    print(scaled(x, "double"))

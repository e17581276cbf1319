# A traced parameter compared with a string holds a Python string: jit cannot take it as a
# traced argument at all (`TypeError` at the call), so it must be static; `jnp.where` cannot help.
from functools import partial

import jax
import jax.numpy as jnp


def activate(x, kind):
    return jax.nn.relu(x) if kind == "relu" else jnp.tanh(x)  # error: JAX501


@jax.jit
def normalise(x, mode):
    if mode in ("l1", "l2"):  # error: JAX501
        return x / jnp.linalg.norm(x)
    return x


@partial(jax.jit, static_argnames=("mode",))
def scaled(x, mode):
    if mode == "double":  # static: a Python string
        return x * 2.0
    return x


if __name__ == "__main__":
    x = jnp.ones(3)
    print(jax.jit(activate)(x, "relu"))
    print(normalise(x, "l2"))
    print(scaled(x, "double"))

# A Python list or tuple indexed with a traced integer asks it for a Python int (`__index__`):
# `TracerIntegerConversionError`, whatever the list holds (measured with JAX 0.10.2). A list that
# eager code hands a jitted function stays a list there; an array of keys is an array.
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def pick(i):
    layers = [jnp.ones(2), jnp.zeros(2)]
    return layers[i]  # error: JAX503


def contract(i, carry):
    tensors, edge = carry
    return tensors, edge @ tensors[i]  # error: JAX503


@jax.jit
def chain(tensors):
    return lax.fori_loop(0, len(tensors), contract, (tensors, jnp.ones(2)))[1]


@jax.jit
def stacked(i):
    layers = jnp.stack([jnp.ones(2), jnp.zeros(2)])
    return layers[i]  # an array: traced indexing is fine


KEYS = jax.random.split(jax.random.key(0), 4)


def draw(i, total):
    return total + jax.random.normal(KEYS[i])  # an array of keys: fine


@jax.jit
def first(tensors):
    return tensors[0]  # a constant index


if __name__ == "__main__":
    tensors = [jnp.eye(2), 2 * jnp.eye(2)]
    print(stacked(1), lax.fori_loop(0, 4, draw, 0.0), first(tensors))
    try:
        chain(tensors)
    except jax.errors.TracerIntegerConversionError:
        print("chain raised")
    try:
        pick(1)
    except jax.errors.TracerIntegerConversionError:
        print("pick raised")

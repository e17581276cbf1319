# A jitted function receives a list (or tuple) that eager code passes as it is: a pytree, not
# an array. Handed on to a `jax.numpy` function that only takes arrays, it raises `TypeError`
# ("sum requires ndarray or scalar arguments, got <class 'list'>", measured with JAX 0.10.2).
# `jnp.stack` takes a sequence by design, and an array passed stays an array.
import jax
import jax.numpy as jnp


@jax.jit
def total(xs):
    return jnp.sum(xs)  # error: JAX603


@jax.jit
def stacked(xs):
    return jnp.sum(jnp.stack(xs))


@jax.jit
def norm(x):
    return jnp.sqrt(jnp.sum(x**2))


@jax.jit
def first(pair):
    return jnp.exp(pair[0])


if __name__ == "__main__":
    a = jnp.ones(2)
    print(total([a, a]))
    print(stacked([a, a]))
    print(norm(jnp.ones(3)))
    print(first((a, a)))

# A jitted function receives a list (or tuple) that eager code passes as it is, of arrays or of
# numbers: a pytree of traced leaves, not an array. Handed on to a `jax.numpy` function that only takes arrays, it raises `TypeError`
# ("sum requires ndarray or scalar arguments, got <class 'list'>", measured with JAX 0.10.2).
# `jnp.stack` takes a sequence by design, and an array passed stays an array.
import jax
import jax.numpy as jnp


@jax.jit
def total(xs):
    return jnp.sum(xs)  # error: JAX603


@jax.jit
def mean_of(values):
    return jnp.mean(values)  # error: JAX603


@jax.jit
def mean_of_array(values):
    return jnp.mean(jnp.asarray(values))


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
    for hazard in (lambda: total([a, a]), lambda: mean_of([1.0, 2.0, 3.0])):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert float(stacked([a, a])) == 4.0
    assert float(mean_of_array([1.0, 2.0, 3.0])) == 2.0
    assert jnp.allclose(norm(jnp.ones(3)), jnp.sqrt(3.0))
    assert jnp.allclose(first((a, a)), jnp.exp(a))
    print("ok")

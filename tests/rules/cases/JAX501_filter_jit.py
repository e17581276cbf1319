"""`equinox.filter_jit` traces arrays and keeps every other value static: a parameter is known to
be traced only from its annotation or from being read as an array (`x.shape`, `x.at[...]`,
`x.sum()`, `x[x > 0]`)."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(x, flag):
    if flag:  # ok: an unannotated flag may be a Python bool, which filter_jit keeps static
        x = x * 2
    if x.sum() > 0:  # error: JAX501 (x is read as an array below: traced)
        return x
    return jnp.zeros(x.shape)


@eqx.filter_jit
def plain(x, n):
    if n > 0:  # ok: n may be an array (traced) or a Python number (static)
        return x
    return -x


@eqx.filter_jit
def summed(x):
    if x > 0:  # error: JAX501 (x.sum(): no Python number has it, so x is an array)
        return x.sum()
    return -x


@eqx.filter_jit
def masked(x, y):
    if y > 0:  # ok: y is never used as an array
        return x[x > 0]  # error: JAX401 (x masked by its own comparison: an array)
    return y


@eqx.filter_jit
def masked_twice(x):
    if x.max() > 0:  # error: JAX501
        return x[x > 0].sum()  # error: JAX401
    return x


@eqx.filter_jit
def python_methods(x, s):
    if s.startswith("a"):  # ok: a string method says nothing of arrays
        return x
    return x.conjugate()  # conjugate: Python numbers have it too


if __name__ == "__main__":
    import jax

    x = jnp.ones(2)
    for hazard, error in [
        (lambda: step(x, True), jax.errors.TracerBoolConversionError),
        (lambda: summed(jnp.float32(1.0)), jax.errors.TracerBoolConversionError),
        (lambda: masked(x, 1.0), jax.errors.NonConcreteBooleanIndexError),
        (lambda: masked_twice(x), jax.errors.TracerBoolConversionError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    assert plain(x, 1).tolist() == [1.0, 1.0]
    assert python_methods(x, "abc").tolist() == [1.0, 1.0]
    print("ok")

# `any`, `all` and `sorted` call `bool()` on each element of what they are given (`sorted`
# through `<`): on the elements of a traced array that raises (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


@jax.jit
def clip_if_large(x):
    if any(x > 5.0):  # error: JAX503
        return jnp.clip(x, -5.0, 5.0)
    return x


@jax.jit
def all_positive(x):
    return jnp.where(all(v > 0 for v in x), x, -x)  # error: JAX503


@jax.jit
def median3(x):
    ordered = sorted(jnp.abs(x))  # error: JAX503
    return ordered[1]


@jax.jit
def checked(params, x):
    if any(dim > 4 for dim in x.shape):  # static: the shape
        x = x[:4]
    names = sorted(params)  # a dict's keys
    return x * params[names[0]] * jnp.any(x > 0)


if __name__ == "__main__":
    print(checked({"w": 2.0}, jnp.ones(3)))
    for failing in (clip_if_large, all_positive, median3):
        try:
            failing(jnp.array([1.0, 9.0, 3.0]))
        except jax.errors.TracerBoolConversionError:
            print(failing.__name__, "raised")

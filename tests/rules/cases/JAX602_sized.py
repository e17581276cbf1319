# NumPy functions whose result's size depends on the values convert a tracer (measured with JAX
# 0.10.2: TracerArrayConversionError); their jax.numpy namesakes need a static `size=` under jit,
# so they are reported without a rewrite.
import jax
import jax.numpy as jnp
import numpy as np


def n_distinct(tokens):
    return len(np.unique(tokens))  # error: JAX602


@jax.jit
def positive_positions(x):
    return np.nonzero(x > 0)  # error: JAX602


@jax.jit
def kept(x, mask):
    return np.compress(mask, x)  # error: JAX602


# near misses


@jax.jit
def padded_distinct(tokens):
    return jnp.unique(tokens, size=3, fill_value=0)


@jax.jit
def chosen(x, y):
    return np.where(x > 0, x, y)  # error: JAX602 (three arguments: rewritten as it is)


def eager_distinct(tokens):
    return len(np.unique(np.asarray(tokens)))


SIZES = np.unique(np.array([3, 1, 3]))


if __name__ == "__main__":
    batch = jnp.array([[1, 1, 2], [3, 4, 5]])
    for call in (
        lambda: jax.vmap(n_distinct)(batch),
        lambda: positive_positions(jnp.array([1.0, -1.0])),
        lambda: kept(jnp.array([1.0, 2.0]), jnp.array([True, False])),
    ):
        try:
            call()
        except jax.errors.TracerArrayConversionError:
            pass
        else:
            raise AssertionError("expected TracerArrayConversionError")
    assert padded_distinct(jnp.array([2, 1, 2])).tolist() == [1, 2, 0]
    assert eager_distinct(jnp.array([2, 1, 2])) == 2
    print("ok")

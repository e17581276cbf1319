import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def accumulator(n):
    return jnp.zeros(n, dtype=jnp.float64)  # error: JAX605


def from_numpy_dtype(x):
    return jnp.asarray(x, np.float64)  # error: JAX605


def as_string(n):
    return jnp.ones((n, n), "complex128")  # error: JAX605


def scalar(x):
    return jnp.float64(x)  # error: JAX605


def cast(n):
    x = jnp.arange(n)
    return x.astype(jnp.float64)  # error: JAX605


def sampled(key):
    return jax.random.normal(key, (3,), dtype=jnp.float64)  # error: JAX605


def converted(x):
    return lax.convert_element_type(x, jnp.float64)  # error: JAX605


@jax.jit
def precise_sum(x):
    return jnp.sum(x.astype(jnp.float64))  # error: JAX605 (a tracer with `.astype` is an array)


@jax.vmap
def widened(x):
    return x.astype("float64")  # error: JAX605


# --- near misses ---


def numpy_arrays(x):
    host = np.zeros(3, dtype=np.float64)  # NumPy has float64
    return host.astype(jnp.float64), np.asarray(x).astype(np.float64)


def queries(x):
    return jnp.finfo(jnp.float64).eps, x.dtype == jnp.float64, jnp.issubdtype(x.dtype, jnp.float64)


def thirty_two(n):
    return jnp.zeros(n, dtype=jnp.float32) + jnp.ones(n, dtype=float)


def unknown_receiver(x):
    return x.astype(jnp.float64)  # eager: NumPy's astype, perhaps


@jax.jit
def narrowed(x):
    return x.astype(jnp.float32)


if __name__ == "__main__":
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # JAX warns that the requested type is not available
        for result in (
            accumulator(3),
            from_numpy_dtype(np.ones(2)),
            as_string(2),
            scalar(1.5),
            cast(3),
            sampled(jax.random.key(0)),
            converted(jnp.ones(2)),
            precise_sum(jnp.ones(2)),
            widened(jnp.ones(2)),
        ):
            # silently 32 bits wide: float32, or a complex of two float32 for complex128
            assert result.dtype.itemsize == (8 if jnp.iscomplexobj(result) else 4), result.dtype
    host, converted = numpy_arrays(np.ones(2))
    assert host.dtype == np.float64 and converted.dtype == np.float64
    eps, is_64, sub = queries(jnp.ones(2))
    assert eps == np.finfo(np.float64).eps and not is_64 and not sub
    assert thirty_two(2).dtype == jnp.float32
    assert unknown_receiver(np.ones(2)).dtype == np.float64
    assert narrowed(jnp.ones(2)).dtype == jnp.float32
    print("ok")

# A shape, size, count or axis must be an integer: a float there (`/` always makes one) raises
# `TypeError`, eagerly as under `jit`. `jnp.arange` takes floats, and `jnp.split` a float number
# of sections (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

key = jax.random.key(0)
x = jnp.ones((4, 3))


def half_buffer(x):
    return jnp.zeros(x.shape[0] / 2)  # error: JAX412


def shape_entry(x):
    return jnp.ones((x.shape[0] / 2, 3))  # error: JAX412


def noise(key, x):
    return jax.random.normal(key, (len(x) / 2,))  # error: JAX412


def points(n):
    return jnp.linspace(0.0, 1.0, num=n * 0.5)  # error: JAX412


def classes(labels, k):
    return jax.nn.one_hot(labels, float(k))  # error: JAX412


def reshaped():
    return x.reshape(x.shape[0] / 2, -1)  # error: JAX412


def reshaped_by_tuple():
    return x.reshape((x.shape[0] / 2, 6))  # error: JAX412


def summed():
    return x.sum(axis=1.0)  # error: JAX412


def counted_bins(x):
    return jnp.histogram(x, bins=x.shape[0] / 2)  # error: JAX412


# near misses


def bin_edges(x):
    return jnp.histogram(x, bins=jnp.linspace(0.0, 1.0, 5))  # an array of edges: floats are fine


def floor_divided(x):
    return jnp.zeros(x.shape[0] // 2), jnp.ones((len(x) // 2, 3))


def arange_takes_floats(x):
    return jnp.arange(x.shape[0] / 2)


def split_takes_a_float_count(x):
    return jnp.split(x, 4 / 2)


def reshaped_by_ints():
    return x.reshape(x.shape[0] // 2, -1), x.reshape((2, 6))


def integer_product(n):
    return jnp.zeros(n * 2)


if __name__ == "__main__":
    floor_divided(x), arange_takes_floats(x), split_takes_a_float_count(x), integer_product(2), bin_edges(x[0]), reshaped_by_ints()
    for failing in (lambda: half_buffer(x), lambda: shape_entry(x), lambda: noise(key, x), lambda: points(10), lambda: classes(jnp.arange(3), 3), lambda: counted_bins(x[0]), reshaped, reshaped_by_tuple, summed):
        try:
            failing()
        except TypeError:
            pass
        else:
            raise AssertionError("expected TypeError")
    print("as labelled")

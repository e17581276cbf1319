# Indices must be integers (or booleans): a float index raises `TypeError` ("Indexer must have
# integer or boolean type"; a float slice bound: "'float' object cannot be interpreted as an
# integer"), eagerly and under jit (measured with JAX 0.10.2). `/` always gives a float.
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def median_of_sorted(x):
    s = jnp.sort(x)
    return s[s.shape[0] / 2]  # error: JAX408


@jax.jit
def first_half(x):
    return x[: x.shape[0] / 2]  # error: JAX408


@jax.jit
def scaled_row(m, i):
    return m[i * 0.5, 0]  # error: JAX408


def histogram(energies, e_min, width, n_bins):
    def body(i, hist):
        e = energies[i]
        return hist.at[(e - e_min) // width].add(1)  # error: JAX408

    return lax.fori_loop(0, energies.shape[0], body, jnp.zeros(n_bins, jnp.int32))


def binned(energies, e_min, width, n_bins):
    def body(i, hist):
        return hist.at[((energies[i] - e_min) // width).astype(jnp.int32)].add(1)

    return lax.fori_loop(0, energies.shape[0], body, jnp.zeros(n_bins, jnp.int32))


# near misses


@jax.jit
def median_floor(x):
    s = jnp.sort(x)
    return s[s.shape[0] // 2]


def python_list(values):
    return values[len(values) // 2]


def float_keys(table, n):
    return table[n / 2]  # a dict may be keyed by floats


if __name__ == "__main__":
    x = jnp.array([3.0, 1.0, 2.0, 5.0, 4.0])
    print(median_floor(x), python_list([1, 2, 3]), float_keys({1.5: "a"}, 3))
    print(jax.jit(binned, static_argnums=3)(jnp.array([0.1, 0.4, 0.9]), 0.0, 0.25, 4))
    try:
        jax.jit(histogram, static_argnums=3)(jnp.array([0.1, 0.4, 0.9]), 0.0, 0.25, 4)
    except TypeError:
        pass
    else:
        raise AssertionError("expected TypeError")
    for failing in (lambda: median_of_sorted(x), lambda: first_half(x), lambda: scaled_row(jnp.ones((3, 3)), 1)):
        try:
            failing()
        except TypeError as error:
            print("TypeError:", str(error)[:50])
        else:
            raise AssertionError("expected TypeError")

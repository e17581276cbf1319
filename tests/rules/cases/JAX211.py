# NumPy cannot write into a JAX array: `np.add.at`, `np.copyto`, `np.put`, `np.fill_diagonal`,
# `out=` raise on one (measured with JAX 0.10.2: `TypeError`, `NotImplementedError`).
import jax.numpy as jnp
import numpy as np

labels = jnp.array([0, 2, 2, 1, 2])


def histogram():
    counts = jnp.zeros(3, jnp.int32)
    np.add.at(counts, labels, 1)  # error: JAX211
    return counts


def reset(buffer):
    np.copyto(buffer, 0.0)  # error: JAX211
    return buffer


def diagonal():
    gram = jnp.ones((2, 2))
    np.fill_diagonal(gram, 0.0)  # error: JAX211
    return gram


def incremented():
    total = jnp.zeros(3)
    np.add(total, 1.0, out=total)  # error: JAX211
    return total


# near misses


def numpy_histogram():
    counts = np.zeros(3, np.int32)
    np.add.at(counts, np.asarray(labels), 1)
    return counts


def functional_histogram():
    counts = jnp.zeros(3, jnp.int32)
    return counts.at[labels].add(1)


def numpy_copy(buffer):
    copy = np.array(buffer)
    np.copyto(copy, 0.0)
    return copy


def raises(call):
    try:
        call()
    except (TypeError, NotImplementedError):
        return True
    return False


if __name__ == "__main__":
    for call in (histogram, lambda: reset(jnp.ones(3)), diagonal, incremented):
        assert raises(call)
    for call in (numpy_histogram, functional_histogram, lambda: numpy_copy(jnp.ones(3))):
        assert not raises(call)

# `jnp.array` and `jnp.asarray` hold numbers and booleans only: a string among what they are
# given raises `TypeError` (measured with JAX 0.10.2). Integer ids, and strings kept in NumPy
# or Python, are fine.
import jax.numpy as jnp
import numpy as np

labels = ["cat", "dog", "cat"]


def encode_directly():
    return jnp.array(labels)  # error: JAX619


def mixed():
    return jnp.asarray([1, "two"])  # error: JAX619


# near misses


def encode_ids():
    classes = {"cat": 0, "dog": 1}
    return jnp.array([classes[label] for label in labels])


def keep_in_numpy():
    return np.array(labels)


def numbers():
    return jnp.array([1.0, 2.0])


if __name__ == "__main__":
    for hazard in (encode_directly, mixed):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert encode_ids().tolist() == [0, 1, 0]
    assert keep_in_numpy().tolist() == labels
    assert numbers().tolist() == [1.0, 2.0]
    print("ok")

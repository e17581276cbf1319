# The NumPy array `np.asarray` (or `np.asanyarray`, `np.from_dlpack`, `jax.device_get`) gives
# for a JAX array is a read-only view of its buffer: writing into it raises `ValueError`
# ("assignment destination is read-only", "output array is read-only" for `+=`), measured with
# JAX 0.10.2. `np.array` copies.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def predict(x):
    return jnp.tanh(x)


def clipped_scores():
    scores = np.asarray(predict(jnp.linspace(-2, 2, 5)))
    scores[scores < 0] = 0.0  # error: JAX208
    return scores


def shifted():
    host = np.asanyarray(jnp.ones(3))
    host += 1  # error: JAX208
    return host


def fetched():
    values = jax.device_get(jnp.arange(4.0))
    values[1:] *= 2  # error: JAX208
    return values


def zero_copy():
    frames = np.from_dlpack(predict(jnp.ones((2, 3))))
    frames[:, 0] = 0.0  # error: JAX208
    return frames


# near misses


def from_dlpack_of_numpy():
    frames = np.from_dlpack(np.ones((2, 3)))
    frames[:, 0] = 0.0
    return frames


def copied():
    scores = np.array(predict(jnp.linspace(-2, 2, 5)))
    scores[scores < 0] = 0.0
    return scores


def from_a_list():
    values = np.asarray([1.0, 2.0])
    values[0] = 3.0
    return values


def rebound():
    values = np.asarray(jnp.ones(2))
    values = values * 2
    values[0] = 1.0
    return values


if __name__ == "__main__":
    copied(), from_a_list(), rebound(), from_dlpack_of_numpy()
    for failing in (clipped_scores, shifted, fetched, zero_copy):
        try:
            failing()
        except ValueError as error:
            assert "read-only" in str(error)
        else:
            raise AssertionError("expected ValueError")
    print("ok")

# Drawing twice from one key and checking the draws are equal is a test of determinism: the
# sameness is the point. Drawing twice and using both as independent numbers is a reuse.
import jax
import jax.numpy as jnp
import numpy as np


def test_same_key_same_numbers():
    key = jax.random.key(123)
    first = jax.random.normal(key, (3,))
    again = jax.random.normal(key, (3,))
    np.testing.assert_array_equal(first, again)


def test_same_key_same_permutation():
    key = jax.random.key(7)
    order = jax.random.permutation(key, 5)
    repeat = jax.random.permutation(key, 5)
    assert (order == repeat).all()


INIT_KEY = jax.random.split(jax.random.key(42))[0]


def init_weights(shape):
    return jax.random.normal(INIT_KEY, shape) * 0.1


weights = init_weights((3,))
assert bool(jnp.array_equal(weights, init_weights((3,))))  # the second draw, in the check itself


SHARED = jax.random.key(42)


def shared_weights(shape):
    return jax.random.normal(SHARED, shape) * 0.1


def shared_noise(shape):
    return jax.random.normal(SHARED, shape) * 0.1


noise = shared_noise((3,))
assert bool(jnp.array_equal(shared_weights((3,)), noise))  # error: JAX301 (two different draws)


def noisy_pair(key, x):
    a = jax.random.normal(key, x.shape)
    b = jax.random.normal(key, x.shape)  # error: JAX301
    return x + a, x - b


def test_two_samples_differ():
    key = jax.random.key(1)
    first = jax.random.uniform(key, (3,))
    second = jax.random.uniform(key, (3,))  # error: JAX301
    assert not jnp.allclose(first, second)  # fails: they are the same draw


if __name__ == "__main__":
    test_same_key_same_numbers()
    test_same_key_same_permutation()
    left, right = noisy_pair(jax.random.key(0), jnp.zeros(3))
    assert jnp.allclose(left, -right)  # the "independent" noise is one draw, mirrored

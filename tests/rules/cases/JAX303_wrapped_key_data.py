# `jax.random.wrap_key_data(data)` makes a key from saved key data: given the same data on every
# call (a module constant, a checkpoint loaded once), it is the same key every time, so each
# call draws the same numbers (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
import numpy as np

SAVED_KEY_DATA = np.array([0, 1234], dtype=np.uint32)


def noisy_step(w, lr=0.1):
    key = jax.random.wrap_key_data(SAVED_KEY_DATA)  # error: JAX303
    return w - lr * 0.01 * jax.random.normal(key, w.shape)


def train(w):
    for _ in range(20):
        w = noisy_step(w)
    return w


def sample_rows(n):
    rows = []
    for _ in range(n):
        key = jax.random.wrap_key_data(SAVED_KEY_DATA)  # error: JAX303
        rows.append(jax.random.uniform(key, (2,)))
    return rows


# near misses


def resumed_step(w, key_data):
    key = jax.random.wrap_key_data(key_data)  # data the caller advances
    key, sub = jax.random.split(key)
    return w - 0.001 * jax.random.normal(sub, w.shape), jax.random.key_data(key)


def resumed_training(w):
    key_data = jax.random.key_data(jax.random.wrap_key_data(SAVED_KEY_DATA))
    for _ in range(20):
        w, key_data = resumed_step(w, key_data)
    return w


def seeded_draw(seed):
    return jax.random.normal(jax.random.PRNGKey(seed))  # the seed is the caller's


def seeded_run():
    seed, out = 0, []
    for _ in range(20):
        out.append(seeded_draw(seed))
        seed = seed + 1
    return out


if __name__ == "__main__":
    w = jnp.zeros(3)
    first, second = noisy_step(w), noisy_step(w)
    assert jnp.array_equal(first, second)  # the same noise on every step
    rows = sample_rows(3)
    assert jnp.array_equal(rows[0], rows[2])
    assert not jnp.array_equal(resumed_step(w, jax.random.key_data(jax.random.key(0)))[0], first)
    draws = seeded_run()
    assert not jnp.array_equal(draws[0], draws[1])
    print(train(w), resumed_training(w))

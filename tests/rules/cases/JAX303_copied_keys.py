# `jnp.stack([key] * n)` is n copies of one key: scanned over, every step draws the same numbers
# (measured with JAX 0.10.2). `jax.random.split(key, n)` gives n different keys.
import jax
import jax.numpy as jnp
from jax import lax


def step(x, k):
    x = x + 0.1 * jax.random.normal(k)
    return x, x


def simulate(key, x0, n_steps):
    keys = jnp.stack([key] * n_steps)  # error: JAX303
    _, path = lax.scan(step, x0, keys)
    return path


def simulate_comprehension(rng, x0, n_steps):
    keys = jnp.array([rng for _ in range(n_steps)])  # error: JAX303
    _, path = lax.scan(step, x0, xs=keys)
    return path


# near misses


def simulate_split(key, x0, n_steps):
    keys = jax.random.split(key, n_steps)
    _, path = lax.scan(step, x0, keys)
    return path


def stacked_values(x0, n_steps):
    xs = jnp.stack([x0] * n_steps)
    return xs.sum()


if __name__ == "__main__":
    walks = (simulate(jax.random.PRNGKey(0), 0.0, 5), simulate_comprehension(jax.random.PRNGKey(1), 0.0, 5))
    for walk in walks:
        increments = jnp.diff(jnp.concatenate([jnp.zeros(1), walk]))
        assert jnp.allclose(increments, increments[0])
    increments = jnp.diff(jnp.concatenate([jnp.zeros(1), simulate_split(jax.random.PRNGKey(2), 0.0, 5)]))
    assert not jnp.allclose(increments, increments[0])
    print(stacked_values(jnp.ones(2), 3))

# fix: safe
import jax
import jax.numpy as jnp


def safe_dist(d2):
    return jnp.where(d2 > 0, jnp.sqrt(jnp.where(d2 > 0, d2, 1.0)), 0.0)  # distance


def entropy(p):
    return -jnp.sum(jnp.where(p <= 0, 0.0, p * jnp.log(jnp.where(p <= 0, 1.0, p))))


if __name__ == "__main__":
    g = jax.grad(lambda d2: jnp.sum(safe_dist(d2)))(jnp.array([4.0, 0.0]))
    h = jax.grad(entropy)(jnp.array([0.5, 0.0]))
    assert not jnp.isnan(g).any() and not jnp.isnan(h).any()

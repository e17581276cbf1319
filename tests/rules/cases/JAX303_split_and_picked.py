# A key of a fixed seed split in a loop body and indexed with the step index picks another key on
# each step (measured with JAX 0.10.2: the draws differ); indexed with a constant, it repeats.
import jax
import jax.numpy as jnp
from jax import lax


def draw(i, total):
    keys = jax.random.split(jax.random.key(0), 4)
    return total + jax.random.normal(keys[i])  # each step picks another key


def draw_first(i, total):
    return total + jax.random.normal(jax.random.split(jax.random.key(0), 4)[0])  # error: JAX303


def loop():
    total = 0.0
    for i in range(4):
        total += jax.random.normal(jax.random.split(jax.random.key(1), 4)[i])  # another key each time
    return total


if __name__ == "__main__":
    print(lax.fori_loop(0, 4, draw, 0.0), lax.fori_loop(0, 4, draw_first, 0.0), loop())

# In a lax loop body, `fold_in(key, epoch)` with data the body closes over folds the same data
# into the same key on every step, traced or not: every step draws the same numbers (measured
# with JAX 0.10.2).
import jax
import jax.numpy as jnp
from jax import lax


def langevin_noise(key, epoch, n_steps=4, dim=3):
    def body(i, buf):
        k = jax.random.fold_in(key, epoch)
        return buf.at[i].set(jax.random.normal(k, (dim,)))  # error: JAX302

    return lax.fori_loop(0, n_steps, body, jnp.zeros((n_steps, dim)))


# near misses


def stepped_noise(key, epoch, n_steps=4, dim=3):
    def body(i, buf):
        k = jax.random.fold_in(key, i + epoch * n_steps)  # the step index: another key each step
        return buf.at[i].set(jax.random.normal(k, (dim,)))

    return lax.fori_loop(0, n_steps, body, jnp.zeros((n_steps, dim)))


def epoch_noise(key, epoch, dim=3):
    k = jax.random.fold_in(key, epoch)  # once, outside any loop
    return jax.random.normal(k, (dim,))


if __name__ == "__main__":
    noises = jax.jit(langevin_noise)(jax.random.key(0), 7)
    assert bool(jnp.allclose(noises, noises[0]))
    noises = jax.jit(stepped_noise)(jax.random.key(1), 7)
    assert not bool(jnp.allclose(noises, noises[0]))
    jax.jit(epoch_noise)(jax.random.key(2), 3)
    print("ok")

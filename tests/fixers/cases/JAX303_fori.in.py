# fix: unsafe
import jax
import jax.numpy as jnp
from jax import lax


def noise_per_step(i, total):
    key = jax.random.key(0)
    return total + jax.random.normal(key, (2,))


def same_iterations(i, total):
    for _ in range(3):
        key = jax.random.key(1)
        total = total + jax.random.normal(key, (2,))
    return total


def iterations_fold_their_index(i, total):
    for j in range(3):
        key = jax.random.fold_in(jax.random.key(2), j)
        total = total + jax.random.normal(key, (2,))
    return total


def iterations_differ(i, acc):
    for j in range(3):
        k = jax.random.key(5)  # no fix: the step index alone would leave every j the same key
        acc = acc.at[j].add(jax.random.uniform(k, ()))
    return acc


def step_index_rebound(i, total):
    i = i * 2
    key = jax.random.key(3)  # no fix: the step index is rebound in the body
    return total + jax.random.normal(key, (2,))


def while_body(carry):
    count, total = carry
    key = jax.random.key(4)  # the counter differs on every step: folded in
    return count + 1, total + jax.random.normal(key, (2,))


def while_body_without_counter(carry):
    done, total = carry
    key = jax.random.key(6)  # no fix: nothing in the carry differs on every step for sure
    return jnp.all(total > -1e9), total + jax.random.normal(key, (2,))


@jax.jit
def run():
    a = lax.fori_loop(0, 3, noise_per_step, jnp.zeros(2))
    b = lax.fori_loop(0, 3, same_iterations, jnp.zeros(2))
    c = lax.fori_loop(0, 3, iterations_fold_their_index, jnp.zeros(2))
    d = lax.fori_loop(0, 3, step_index_rebound, jnp.zeros(2))
    e = lax.while_loop(lambda c: c[0] < 3, while_body, (0, jnp.zeros(2)))
    f = lax.fori_loop(0, 2, iterations_differ, jnp.zeros(3))
    g = lax.while_loop(lambda c: ~c[0], while_body_without_counter, (False, jnp.zeros(2)))
    return a, b, c, d, e, f, g

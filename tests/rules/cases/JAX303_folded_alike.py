# `fold_in(key, data)` does not consume its key: each call with the same key and data makes the
# same key again. Inside a loop where neither changes (and the loop variable is unused), every
# iteration draws identical random numbers (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

base_key = jax.random.key(7)


def epochs_of_masks():
    masks = []
    for epoch in range(2):
        for step in range(3):
            step_key = jax.random.fold_in(base_key, epoch)  # error: JAX303
            masks.append(jax.random.bernoulli(step_key, 0.5, (6,)))
    return masks


@jax.jit
def noisy_sum(x, key):  # a constant folded in: the key walker's (JAX302)
    total = x
    for _ in range(3):
        total = total + jax.random.normal(jax.random.fold_in(key, 1), x.shape)  # error: JAX302
    return total


def retries(key, seed):
    tries = 0
    draws = []
    while tries < 3:
        draws.append(jax.random.uniform(jax.random.fold_in(key, seed)))  # error: JAX303
        tries += 1
    return draws


# near misses


def per_step(key):
    return [jax.random.normal(jax.random.fold_in(key, step)) for step in range(3)]


def resplit(key):
    draws = []
    for _ in range(3):
        key, sub = jax.random.split(key)
        draws.append(jax.random.normal(jax.random.fold_in(key, 0)))
    return draws


def made_once_used_after(key):
    for _ in range(3):
        last = jax.random.fold_in(key, 5)
    return jax.random.normal(last)


if __name__ == "__main__":
    masks = epochs_of_masks()
    assert all(jnp.array_equal(masks[0], m) for m in masks[:3])
    key = jax.random.key(0)
    x = jnp.zeros(2)
    assert jnp.allclose(noisy_sum(x, key), 3 * jax.random.normal(jax.random.fold_in(key, 1), (2,)))
    draws = retries(key, 3)
    assert draws[0] == draws[1] == draws[2]
    assert len({float(d) for d in per_step(key)}) == 3 and len({float(d) for d in resplit(key)}) == 3
    print(made_once_used_after(key))

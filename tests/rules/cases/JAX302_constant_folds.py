# `fold_in(key, 0)` is the same key whenever it runs: made again on every iteration of a loop,
# it draws the same numbers each time (measured with JAX 0.10.2). Folding in the loop variable
# gives each iteration a key of its own.
import jax


def epochs(base):
    draws = []
    for epoch in range(3):
        key = jax.random.fold_in(base, 0)
        draws.append(jax.random.uniform(key))  # error: JAX302
    return draws


def inline(base):
    return [jax.random.normal(jax.random.fold_in(base, 1)) for _ in range(3)]  # error: JAX302


def per_epoch(base):
    draws = []
    for epoch in range(3):
        draws.append(jax.random.uniform(jax.random.fold_in(base, epoch)))  # a key per epoch
    return draws


if __name__ == "__main__":
    same = epochs(jax.random.key(0))
    assert len({float(d) for d in same}) == 1
    assert len({float(d) for d in inline(jax.random.key(0))}) == 1
    assert len({float(d) for d in per_epoch(jax.random.key(0))}) == 3

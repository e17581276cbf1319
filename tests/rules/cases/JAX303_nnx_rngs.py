# `nnx.Rngs(dropout=0)` made again on every iteration, or `nnx.reseed(model, dropout=1)` run on
# every iteration, starts the streams from the same seeds: every iteration draws the same
# dropout mask (measured with flax 0.12.8).
import jax.numpy as jnp
from flax import nnx


class Model(nnx.Module):
    def __init__(self):
        self.drop = nnx.Dropout(0.5)

    def __call__(self, x, rngs):
        return self.drop(x, rngs=rngs)


model = Model()
x = jnp.ones((1, 8))


def train(steps):
    outputs = []
    for _ in range(steps):
        outputs.append(model(x, rngs=nnx.Rngs(dropout=0)))  # error: JAX303
    return outputs


class Held(nnx.Module):
    def __init__(self, rngs):
        self.drop = nnx.Dropout(0.5, rngs=rngs)

    def __call__(self, x):
        return self.drop(x)


def reseeded_every_step(steps):
    held = Held(nnx.Rngs(dropout=0))
    outputs = []
    for _ in range(steps):
        nnx.reseed(held, dropout=1)  # error: JAX303
        outputs.append(held(x))
    return outputs


# near misses


def reseeded_per_step(steps):
    held = Held(nnx.Rngs(dropout=0))
    outputs = []
    for step in range(steps):
        nnx.reseed(held, dropout=step)
        outputs.append(held(x))
    return outputs


def train_once_made(steps):
    rngs = nnx.Rngs(dropout=0)
    return [model(x, rngs=rngs) for _ in range(steps)]


def sweep(seeds):
    return [model(x, rngs=nnx.Rngs(dropout=seed)) for seed in seeds]


if __name__ == "__main__":
    same = train(3)
    assert all(bool(jnp.array_equal(same[0], o)) for o in same)
    varied = train_once_made(3)
    assert not all(bool(jnp.array_equal(varied[0], o)) for o in varied)
    print(len(sweep([0, 1])))
    same = reseeded_every_step(3)
    assert all(bool(jnp.array_equal(same[0], o)) for o in same)
    varied = reseeded_per_step(3)
    assert not all(bool(jnp.array_equal(varied[0], o)) for o in varied)

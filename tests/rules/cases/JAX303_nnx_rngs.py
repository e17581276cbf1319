# `nnx.Rngs(dropout=0)` made again on every iteration starts its streams from the same seeds:
# every iteration draws the same dropout mask (measured with flax 0.12.8).
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


# near misses


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

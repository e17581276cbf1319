# A lifted `nn.vmap`/`nn.scan` that gives params an axis but keeps one params rng initialises
# every copy identically (measured with flax 0.12.8). Splitting the rng, or sharing the params
# (no axis), does not.
import flax.linen as nn
import jax
import jax.numpy as jnp


class Member(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


class Cell(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        return carry, nn.Dense(1)(x)


Ensemble = nn.vmap(
    Member,
    variable_axes={"params": 0},
    split_rngs={"params": False},  # error: JAX646
    in_axes=None,
    axis_size=4,
)
Layers = nn.scan(Cell, variable_axes={"params": 0}, split_rngs={"params": False, "dropout": True}, length=4)  # error: JAX646

# near misses

Split = nn.vmap(Member, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None, axis_size=4)
Shared = nn.vmap(Member, variable_axes={"params": None}, split_rngs={"params": False}, in_axes=0)
SharedScan = nn.scan(Cell, variable_broadcast="params", split_rngs={"params": False}, length=4)


def kernels(module, *args):
    return module().init(jax.random.key(0), *args)["params"]["Dense_0"]["kernel"]


if __name__ == "__main__":
    x = jnp.ones((2, 3))
    k = kernels(Ensemble, x)
    assert bool(jnp.all(k == k[0]))
    k = kernels(Layers, None, jnp.ones((4, 3)))
    assert bool(jnp.all(k == k[0]))
    k = kernels(Split, x)
    assert not bool(jnp.all(k == k[0]))
    print(kernels(Shared, jnp.ones((4, 2, 3))).shape, kernels(SharedScan, None, jnp.ones((4, 3))).shape)
    print("ok")

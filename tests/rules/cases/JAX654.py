# A lifted nn.scan/nn.vmap of a module with dropout must split the `dropout` rng, or every step
# or member draws the same mask (measured with flax 0.12.8).
import flax.linen as nn
import jax
import jax.numpy as jnp


class NoisyCell(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        h = nn.Dropout(0.5, deterministic=False)(jnp.ones(6))
        return carry + 1.0, h


class Member(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(nn.Dense(6)(x))


class Quiet(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        return carry, nn.Dropout(0.5, deterministic=True)(jnp.ones(6))


Scanned = nn.scan(NoisyCell, variable_broadcast="params", split_rngs={"params": False}, length=4)  # error: JAX654
Ensemble = nn.vmap(Member, variable_axes={"params": None}, split_rngs={"params": False, "dropout": False}, in_axes=0)  # error: JAX654

# near misses

Split = nn.scan(NoisyCell, variable_broadcast="params", split_rngs={"params": False, "dropout": True}, length=4)
Deterministic = nn.scan(Quiet, variable_broadcast="params", split_rngs={"params": False}, length=4)

RNGS = {"params": jax.random.key(0), "dropout": jax.random.key(1)}


def masks(module, *args):
    return module().init_with_output(RNGS, *args)[0]


if __name__ == "__main__":
    _, same = masks(Scanned, 0.0, None)
    assert bool(jnp.all(same == same[0]))
    out = masks(Ensemble, jnp.ones((4, 3)))
    assert bool(jnp.all((out == 0) == (out[0] == 0)))
    _, split = masks(Split, 0.0, None)
    assert not bool(jnp.all(split == split[0]))
    print(masks(Deterministic, 0.0, None)[1].shape)
    print("ok")

# A module lifted with linen's `nn.vmap` maps its `__call__` over the batch, `init` included: its
# mapped inputs are batch tracers there, so a Python `if` on them raises (measured with JAX
# 0.10.2 and flax 0.12.8); an input `in_axes` maps with `None` is handed over as it is.
import flax.linen as nn
import jax
import jax.numpy as jnp


class NormGate(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(4)(x)
        if jnp.linalg.norm(h) > 1.0:  # error: JAX501
            h = h / jnp.linalg.norm(h)
        return h


class ScaledGate(nn.Module):
    @nn.compact
    def __call__(self, x, clip):
        if clip:  # unmapped: a Python bool
            x = jnp.clip(x, -1.0, 1.0)
        return nn.Dense(4)(x)


BatchedGate = nn.vmap(NormGate, variable_axes={"params": None}, split_rngs={"params": False}, in_axes=0)
BatchedScaled = nn.vmap(
    ScaledGate, variable_axes={"params": None}, split_rngs={"params": False}, in_axes=(0, None)
)


# near misses


class SmoothGate(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(4)(x)
        norm = jnp.linalg.norm(h)
        return jnp.where(norm > 1.0, h / norm, h)


BatchedSmooth = nn.vmap(SmoothGate, variable_axes={"params": None}, split_rngs={"params": False})


if __name__ == "__main__":
    x = jnp.ones((3, 2))
    try:
        BatchedGate().init(jax.random.key(0), x)
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("no error")
    BatchedScaled().init(jax.random.key(1), x, True)
    BatchedSmooth().init(jax.random.key(2), x)
    print("ok")

# A cell lifted with linen's `nn.scan` is traced as a scan body, also during `init`: its carry
# and the inputs it scans over are tracers, so a Python `if` on them raises
# (measured with JAX 0.10.2 and flax 0.12.8); an input `in_axes` marks `nn.broadcast` is handed
# to every step as it is.
import flax.linen as nn
import jax
import jax.numpy as jnp


class ClippedCell(nn.Module):
    @nn.compact
    def __call__(self, h, x):
        h = jnp.tanh(nn.Dense(4)(x) + h)
        if jnp.linalg.norm(h) > 1.5:  # error: JAX501
            h = h / jnp.linalg.norm(h)
        return h, h


class GatedCell(nn.Module):
    @nn.compact
    def __call__(self, h, x, clip):
        if x.sum() > 0:  # error: JAX501
            h = h + 1.0
        if clip:  # a broadcast Python flag: the same for every step, and static
            h = jnp.clip(h, -1.0, 1.0)
        return h, nn.Dense(4)(x)


class Encoder(nn.Module):
    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(ClippedCell, variable_broadcast="params", split_rngs={"params": False})
        return scan()(jnp.zeros(4), xs)


class GatedEncoder(nn.Module):
    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(
            GatedCell, variable_broadcast="params", split_rngs={"params": False}, in_axes=(0, nn.broadcast)
        )
        return scan()(jnp.zeros(4), xs, True)


# near misses


class SmoothCell(nn.Module):
    @nn.compact
    def __call__(self, h, x):
        h = jnp.tanh(nn.Dense(4)(x) + h)
        norm = jnp.linalg.norm(h)
        return jnp.where(norm > 1.5, h / norm, h), h


class SmoothEncoder(nn.Module):
    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(SmoothCell, variable_broadcast="params", split_rngs={"params": False})
        return scan()(jnp.zeros(4), xs)


class FlaggedCell(nn.Module):
    @nn.compact
    def __call__(self, h, x, clip):
        if clip:  # broadcast: a Python bool on every step
            h = jnp.clip(h, -1.0, 1.0)
        return h, nn.Dense(4)(x)


class FlaggedEncoder(nn.Module):
    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(
            FlaggedCell, variable_broadcast="params", split_rngs={"params": False}, in_axes=(0, nn.broadcast)
        )
        return scan()(jnp.zeros(4), xs, True)


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    xs = jax.random.normal(jax.random.key(0), (6, 3))
    assert raises(lambda: Encoder().init(jax.random.key(1), xs))
    assert raises(lambda: GatedEncoder().init(jax.random.key(2), xs))
    SmoothEncoder().init(jax.random.key(3), xs)
    FlaggedEncoder().init(jax.random.key(4), xs)
    print("ok")

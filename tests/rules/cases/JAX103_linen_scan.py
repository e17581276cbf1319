# A cell lifted with linen's `nn.scan` is traced as part of the method that lifts it: applied
# through `jax.jit(model.apply)`, the globals it reads are compiled in, and a later change is
# ignored (measured with JAX 0.10.2 and flax 0.12.8).
import flax.linen as nn
import jax
import jax.numpy as jnp

DECAY = 0.9
GAIN = 2.0


class DecayCell(nn.Module):
    @nn.compact
    def __call__(self, h, x):
        h = DECAY * h + nn.Dense(4)(x)  # error: JAX103
        return h, h


class Recurrent(nn.Module):
    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(DecayCell, variable_broadcast="params", split_rngs={"params": False})
        return scan()(jnp.zeros(4), xs)[1]


# near misses


class GainCell(nn.Module):
    @nn.compact
    def __call__(self, h, x):
        h = GAIN * h + nn.Dense(4)(x)  # a constant that never changes
        return h, h


class GainRecurrent(nn.Module):
    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(GainCell, variable_broadcast="params", split_rngs={"params": False})
        return scan()(jnp.zeros(4), xs)[1]


if __name__ == "__main__":
    xs = jnp.ones((5, 3))
    model = Recurrent()
    variables = model.init(jax.random.key(0), xs)
    apply = jax.jit(model.apply)
    stale = apply(variables, xs)
    DECAY = 0.1
    assert jnp.allclose(stale, apply(variables, xs))  # the change of DECAY is ignored
    gain = GainRecurrent()
    jax.jit(gain.apply)(gain.init(jax.random.key(1), xs), xs)
    print("ok")

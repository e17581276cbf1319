# Flax calls a parameter's initializer as `init_fn(rng, *init_args)`: one that does not take
# the key first raises `TypeError` when the module is initialized (measured with flax 0.12.8).
import flax.linen as nn
import jax
import jax.numpy as jnp


def ones_like_shape(shape):
    return jnp.ones(shape)


class Scale(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        gamma = self.param("gamma", lambda shape: jnp.ones(shape), (self.features,))  # error: JAX641
        return x * gamma


class Shift(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        beta = self.param("beta", ones_like_shape, (self.features,))  # error: JAX641
        return x + beta


# near misses


class GoodScale(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        gamma = self.param("gamma", lambda rng, shape: jnp.ones(shape), (self.features,))
        beta = self.param("beta", nn.initializers.zeros, (self.features,))
        bias = self.param("bias", lambda rng, shape, dtype=jnp.float32: jnp.zeros(shape, dtype), (self.features,))
        return x * gamma + beta + bias


def raises(module):
    try:
        module.init(jax.random.key(0), jnp.ones((2, 3)))
    except TypeError:
        return True
    return False


if __name__ == "__main__":
    assert raises(Scale(3)) and raises(Shift(3))
    assert not raises(GoodScale(3))

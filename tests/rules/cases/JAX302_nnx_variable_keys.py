# A key an nnx module keeps in an `nnx.Variable` from `__init__` on and draws from on every
# call without ever storing a new one: every call (jitted by `nnx.jit` or not) draws the same
# numbers (measured with flax 0.12.8). Splitting it and storing the new key in the variable
# (nnx carries the update out of `nnx.jit`), or drawing from `nnx.Rngs`, is fine.
import jax
import jax.numpy as jnp
from flax import nnx


class GaussianNoise(nnx.Module):
    def __init__(self, sigma, key):
        self.sigma = sigma
        self.key = nnx.Variable(key)

    def __call__(self, x):
        noise = jax.random.normal(self.key.value, x.shape)  # error: JAX302
        return x + self.sigma * noise


# near misses


class AdvancingNoise(nnx.Module):
    def __init__(self, sigma, key):
        self.sigma = sigma
        self.key = nnx.Variable(key)

    def __call__(self, x):
        self.key.value, subkey = jax.random.split(self.key.value)
        return x + self.sigma * jax.random.normal(subkey, x.shape)


class StreamNoise(nnx.Module):
    def __init__(self, sigma, rngs):
        self.sigma = sigma
        self.rngs = rngs

    def __call__(self, x):
        return x + self.sigma * jax.random.normal(self.rngs.noise(), x.shape)


@nnx.jit
def augment(layer, x):
    return layer(x)


def twice(layer):
    x = jnp.zeros(5)
    return bool(jnp.array_equal(augment(layer, x), augment(layer, x)))


def main():
    fixed = twice(GaussianNoise(0.1, jax.random.key(0)))
    advancing = twice(AdvancingNoise(0.1, jax.random.key(1)))
    streamed = twice(StreamNoise(0.1, nnx.Rngs(noise=2)))
    return fixed, advancing, streamed


if __name__ == "__main__":
    assert main() == (True, False, False)
    print("ok")

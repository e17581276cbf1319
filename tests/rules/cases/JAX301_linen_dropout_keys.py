# A linen `Dropout` given its own key (`rng=`) draws its mask from that key: two layers given one
# key drop the same places (measured with JAX 0.10.2 and flax 0.12.8).
import flax.linen as nn
import jax
import jax.numpy as jnp


class TwoBranch(nn.Module):
    @nn.compact
    def __call__(self, x, key):
        a = nn.Dropout(0.5, deterministic=False)(x, rng=key)
        b = nn.Dropout(0.5, deterministic=False)(x, rng=key)  # error: JAX301
        return a, b


# near misses


class SplitBranch(nn.Module):
    @nn.compact
    def __call__(self, x, key):
        key_a, key_b = jax.random.split(key)
        a = nn.Dropout(0.5, deterministic=False)(x, rng=key_a)
        b = nn.Dropout(0.5, deterministic=False)(x, rng=key_b)
        return a, b


class Evaluated(nn.Module):
    @nn.compact
    def __call__(self, x, key):
        a = nn.Dropout(0.5, deterministic=True)(x, rng=key)  # inference: no mask drawn
        b = nn.Dropout(0.5, deterministic=True)(x, rng=key)
        return a, b


if __name__ == "__main__":
    x = jnp.ones((2, 16))
    a, b = TwoBranch().apply({}, x, jax.random.key(0))
    assert jnp.array_equal(a, b)  # the same mask twice
    a, b = SplitBranch().apply({}, x, jax.random.key(1))
    assert not jnp.array_equal(a, b)
    a, b = Evaluated().apply({}, x, jax.random.key(2))
    assert jnp.array_equal(a, x) and jnp.array_equal(b, x)
    print("ok")

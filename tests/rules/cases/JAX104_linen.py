# A flax linen module's attributes are frozen outside `setup`: assigning one in `__call__` (or
# any other method) raises `SetAttributeFrozenModuleError` at `init`/`apply` (measured with flax
# beside JAX 0.10.2). `setup` may assign; `self.sow` keeps intermediates.
import flax.linen as nn
import jax
import jax.numpy as jnp


class Encoder(nn.Module):
    features: int = 8

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        self.last_hidden = h  # error: JAX104
        return nn.relu(h)


class Cached(nn.Module):
    def setup(self):
        self.dense = nn.Dense(2)

    def __call__(self, x):
        self.cache = x  # error: JAX104
        return self.dense(x)


# near misses


class Scaled(nn.Module):
    def setup(self):
        self.scale = 2.0
        self.dense = nn.Dense(2)

    def __call__(self, x):
        return self.dense(x) * self.scale


class Sown(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(2)(x)
        self.sow("intermediates", "hidden", h)
        return h


if __name__ == "__main__":
    x = jnp.ones((1, 3))
    for ok in (Scaled, Sown):
        print(ok().init(jax.random.key(0), x).keys())
    for failing in (Encoder, Cached):
        try:
            failing().init(jax.random.key(0), x)
        except Exception as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected SetAttributeFrozenModuleError")

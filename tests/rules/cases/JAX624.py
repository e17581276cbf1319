# flax makes submodules in `setup`, or inline in a method wrapped in `@nn.compact` (and in
# helpers such a method calls): made inline in a plain `__call__`, `init` raises
# `AssignSubModuleError` (measured with flax beside JAX 0.10.2).
import flax.linen as nn
import jax
import jax.numpy as jnp


class Plain(nn.Module):
    def __call__(self, x):
        return nn.Dense(3)(x)  # error: JAX624


class SetUpAndInline(nn.Module):
    def setup(self):
        self.first = nn.Dense(3)

    def __call__(self, x):
        return nn.Dense(3)(self.first(x))  # error: JAX624


# near misses


class SetUp(nn.Module):
    def setup(self):
        self.first = nn.Dense(3)

    def __call__(self, x):
        return self.first(x)


class CompactCaller(nn.Module):
    @nn.compact
    def __call__(self, x):
        return self.helper(x)

    def helper(self, x):
        return nn.Dense(3)(x)


class Compact(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


if __name__ == "__main__":
    x = jnp.ones((1, 2))
    for ok in (SetUp, CompactCaller, Compact):
        print(ok().init(jax.random.key(0), x)["params"].keys())
    for failing in (Plain, SetUpAndInline):
        try:
            failing().init(jax.random.key(0), x)
        except Exception as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected AssignSubModuleError")

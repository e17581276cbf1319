# A linen module that always sets the `.value` of a variable of a collection other than
# `params` needs `mutable=` for that collection in `apply` (measured with flax 0.12.8:
# `ModifyScopeVariableError`). A write guarded by `is_mutable_collection`, a read only, and an
# apply that passes `mutable=` are fine.
import flax.linen as nn
import jax
import jax.numpy as jnp


class CountingNorm(nn.Module):
    @nn.compact
    def __call__(self, x):
        calls = self.variable("stats", "calls", lambda: jnp.zeros((), jnp.int32))
        calls.value += 1
        return nn.LayerNorm()(x)


class Guarded(nn.Module):
    @nn.compact
    def __call__(self, x):
        calls = self.variable("stats", "calls", lambda: jnp.zeros((), jnp.int32))
        if self.is_mutable_collection("stats"):
            calls.value += 1
        return x


class Reader(nn.Module):
    @nn.compact
    def __call__(self, x):
        scale = self.variable("consts", "scale", lambda: jnp.ones(()))
        return x * scale.value


x = jnp.ones((2, 4))
counting = CountingNorm()
variables = counting.init(jax.random.key(0), x)


def evaluate():
    return counting.apply(variables, x)  # error: JAX629


# near misses


def train():
    return counting.apply(variables, x, mutable=["stats"])


def guarded():
    module = Guarded()
    return module.apply(module.init(jax.random.key(0), x), x)


def read_only():
    module = Reader()
    return module.apply(module.init(jax.random.key(0), x), x)


if __name__ == "__main__":
    try:
        evaluate()
    except Exception as error:  # flax.errors.ModifyScopeVariableError
        assert "immutable" in str(error)
    else:
        raise AssertionError("expected ModifyScopeVariableError")
    out, updated = train()
    assert int(updated["stats"]["calls"]) == 2  # once in init, once here
    print(guarded().shape, read_only().shape)
    print("ok")

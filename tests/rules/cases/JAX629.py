# In training mode a linen `BatchNorm` updates its `batch_stats`, which `apply` keeps immutable
# unless `mutable=` names them: flax raises `ModifyScopeVariableError`. `init` makes every
# collection mutable and works (measured with flax beside JAX 0.10.2).
import flax.linen as nn
import jax
import jax.numpy as jnp

x = jnp.ones((4, 3))
key = jax.random.key(0)


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dense(8)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.relu(x)


class SetUp(nn.Module):
    training: bool = False

    def setup(self):
        self.norm = nn.BatchNorm(use_running_average=not self.training)

    def __call__(self, x):
        return self.norm(x)


class Tower(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        return MLP()(x, train)


class CallTime(nn.Module):
    @nn.compact
    def __call__(self, x, evaluating: bool = True):
        return nn.BatchNorm()(x, evaluating)


model = MLP()
variables = model.init(key, x, train=False)
set_up = SetUp().init(key, x)
tower = Tower().init(key, x)
call_time = CallTime().init(key, x)


def training():
    return model.apply(variables, x, train=True)  # error: JAX629


def positional():
    return model.apply(variables, x, True)  # error: JAX629


def field():
    return SetUp(training=True).apply(set_up, x)  # error: JAX629


def submodule():
    return Tower().apply(tower, x, train=True)  # error: JAX629


def flag_at_the_call():
    return CallTime().apply(call_time, x, False)  # error: JAX629


# near misses


def mutable():
    return model.apply(variables, x, train=True, mutable=["batch_stats"])


def evaluation():
    return model.apply(variables, x, train=False), SetUp().apply(set_up, x), Tower().apply(tower, x)


def unknown(train):
    return model.apply(variables, x, train=train)


def initialised():
    return MLP().init(jax.random.key(4), x, train=True)


if __name__ == "__main__":
    mutable(), evaluation(), unknown(False), initialised()
    for failing in (training, positional, field, submodule, flag_at_the_call):
        try:
            failing()
        except Exception as error:
            assert type(error).__name__ == "ModifyScopeVariableError", error
        else:
            raise AssertionError(f"{failing.__name__}: expected ModifyScopeVariableError")
    print("as labelled")

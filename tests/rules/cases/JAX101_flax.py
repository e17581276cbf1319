"""A flax linen module's `__call__` runs wherever `apply` runs: under `jax.jit` once per trace (a
print there shows tracers), eagerly on real values. jaxlint decides from the project: a module
applied in jitted code is traced; one only ever applied eagerly is not."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Traced(nn.Module):
    @nn.compact
    def __call__(self, x):
        print("input", x)  # error: JAX101
        return nn.Dense(4)(x)


class Eager(nn.Module):
    @nn.compact
    def __call__(self, x):
        print("input", x)  # ok: only applied eagerly below, it prints real values
        return nn.Dense(4)(x)


@jax.jit
def step(params, x):
    return Traced().apply(params, x)


def evaluate(params, x):
    return Eager().apply(params, x)


def setup():
    return Eager().init(jax.random.key(0), jnp.ones(3))


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        print("block", x)  # error: JAX101 (a submodule of Net, applied under jit)
        return nn.Dense(self.features)(x)


class Net(nn.Module):
    def setup(self):
        self.block = Block(4)

    def __call__(self, x):
        return self.block(x)


def make_step():
    net = Net()
    return jax.jit(net.apply)


class EagerBlock(nn.Module):
    @nn.compact
    def __call__(self, x):
        print("block", x)  # ok: EagerNet is only applied eagerly
        return nn.Dense(4)(x)


class EagerNet(nn.Module):
    def setup(self):
        self.block = EagerBlock()

    def __call__(self, x):
        return self.block(x)


def evaluate_net(params, x):
    return EagerNet().apply(params, x)


if __name__ == "__main__":
    import contextlib
    import io

    named = globals()  # the functions by name: what the calls pass stays out of the analysis above

    def printed(call):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            call()
        return out.getvalue().splitlines()

    x = jnp.ones(3)
    params = Traced().init(jax.random.key(0), x)
    lines = printed(lambda: (named["step"](params, x), named["step"](params, x)))
    assert len(lines) == 1 and "Tracer" in lines[0], lines  # once, at tracing, a tracer
    eager_params = printed(named["setup"])
    lines = printed(lambda: (named["evaluate"](named["setup"](), x), named["evaluate"](named["setup"](), x)))
    assert len(lines) == 4 and not any("Tracer" in line for line in lines), lines  # real values, every call
    net_params = Net().init(jax.random.key(0), x)
    net_step = named["make_step"]()
    lines = printed(lambda: (net_step(net_params, x), net_step(net_params, x)))
    assert len(lines) == 1 and lines[0].startswith("block") and "Tracer" in lines[0], lines
    eager_net_params = EagerNet().init(jax.random.key(0), x)
    lines = printed(lambda: (named["evaluate_net"](eager_net_params, x), named["evaluate_net"](eager_net_params, x)))
    assert len(lines) == 2 and not any("Tracer" in line for line in lines), lines
    print("ok")

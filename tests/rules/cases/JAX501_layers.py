# A flax or equinox layer made in `__init__`/`setup` returns an array when called: in traced
# code, a tracer, whose truth Python cannot take. Its shape stays static; eagerly it is concrete.
import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        y = self.lin(x)
        if y.mean() > 0:  # error: JAX501
            return y
        return -y


@nnx.jit
def forward(model, x):
    return model(x)


class Block(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def __call__(self, x):
        y = self.linear(x)
        if y.shape[0] > 2:  # a shape: static
            y = y * 2.0
        return y


@eqx.filter_jit
def run_block(block, x):
    return block(x)


class Head(nn.Module):
    def setup(self):
        self.dense = nn.Dense(2)

    def __call__(self, x):
        y = self.dense(x)
        if y.sum() > 0:  # error: JAX501
            y = -y
        return y


class Probe(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 2, rngs=rngs)

    def check(self, x):
        y = self.lin(x)
        if y.mean() > 0:  # only ever called eagerly: a concrete array
            return y
        return -y


if __name__ == "__main__":
    x = jnp.ones((1, 3))
    probe = Probe(nnx.Rngs(1)).check(x)
    block = run_block(Block(jax.random.key(0)), jnp.ones(3))
    head = Head()
    variables = head.init(jax.random.key(0), x)
    apply_head = lambda: jax.jit(head.apply)(variables, x)  # noqa: E731
    for hazard in (apply_head, lambda: forward(Net(nnx.Rngs(0)), x)):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    assert probe.shape == (1, 2) and float(probe.mean()) >= 0
    assert block.shape == (3,)
    print("ok")

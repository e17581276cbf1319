# `nnx.jit` holds a module's plain Python attributes static (part of its graph): setting one to a
# new value on every iteration of a long loop compiles the function again each time (measured
# with flax 0.12.8). An `nnx.Variable`, an attribute set to the same value, or a short literal
# loop does not.
import jax.numpy as jnp
from flax import nnx

traces = []


class Model(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 3, rngs=rngs)
        self.step = 0
        self.count = nnx.Variable(0)
        self.mode = "train"


@nnx.jit
def forward(model, x):
    traces.append(model.mode)
    return model.lin(x)


def step_counter(x, steps, start=0):
    model = Model(nnx.Rngs(0))
    model.step = start
    for i in range(steps):
        model.step = i  # error: JAX607
        forward(model, x)


def stepped_up(x, steps, start=0):
    model = Model(nnx.Rngs(0))
    model.step = start
    for _ in range(steps):
        model.step += 1  # error: JAX607
        forward(model, x)


def new_attribute(x, steps, start=0):
    model = Model(nnx.Rngs(0))
    model.step = start
    for i in range(steps):
        model.ratio = i * 0.5  # error: JAX607
        forward(model, x)


# near misses


def in_a_variable(x, steps, start=0):
    model = Model(nnx.Rngs(0))
    model.step = start
    for i in range(steps):
        model.count.value = i
        forward(model, x)


def set_over_a_variable(x, steps, start=0):
    model = Model(nnx.Rngs(0))
    model.step = start
    for i in range(steps):
        model.count = i
        forward(model, x)


def same_value(x, steps, start=0):
    model = Model(nnx.Rngs(0))
    model.step = start
    for _ in range(steps):
        model.mode = "train"
        forward(model, x)


def short_loop(x):
    model = Model(nnx.Rngs(0))
    model.mode = "eval"  # (a graph not compiled yet)
    for i in range(3):
        model.step = i
        forward(model, x)


def counted(run, *args):
    traces.clear()
    run(*args)
    return len(traces)


if __name__ == "__main__":
    x = jnp.ones(3)
    assert counted(step_counter, x, 12) == 12
    assert counted(stepped_up, x, 12, 1000) == 12  # (values not compiled for above)
    assert counted(new_attribute, x, 12) == 12
    forward(Model(nnx.Rngs(0)), x)
    assert counted(in_a_variable, x, 12) == 0
    assert counted(set_over_a_variable, x, 12) <= 1
    assert counted(same_value, x, 12) == 0
    assert counted(short_loop, x) == 3
    print("ok")

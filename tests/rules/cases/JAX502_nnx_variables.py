# A flax nnx module handed to an nnx transformation arrives with each of its variables traced,
# its layers' too: `self.n.value` of an `nnx.Variable` and `self.lin.kernel.value` are tracers
# there, so `range` of one raises `TracerIntegerConversionError` and an `if` on one
# `TracerBoolConversionError` (measured with JAX 0.10.2 and flax nnx). A plain Python
# attribute (of the module or of a layer) stays static, as does the module used eagerly.
import jax.numpy as jnp
from flax import nnx


class Repeat(nnx.Module):
    def __init__(self, n, rngs):
        self.n = nnx.Variable(jnp.array(n))
        self.lin = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        for _ in range(self.n.value):  # error: JAX502
            x = self.lin(x)
        return x


class Scaled(nnx.Module):
    def __init__(self, times):
        self.times = nnx.Param(jnp.array(times))
        self.steps = nnx.Variable(jnp.array(times))

    def __call__(self, x):
        for _ in range(self.times[...]):  # error: JAX502
            x = x * 2.0
        return x

    def stepped(self, x):
        for _ in range(self.steps.get_value()):  # error: JAX502
            x = x + 1.0
        return x


class Gate(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        if self.lin.kernel.value.mean() > 0:  # error: JAX501
            return self.lin(x)
        return x


class Widen(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        for _ in range(self.lin.in_features):  # a Python int of the layer: static
            x = self.lin(x)
        return x


class RepeatStatic(nnx.Module):
    def __init__(self, n, rngs):
        self.n = n
        self.lin = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        for _ in range(self.n):  # a Python int: static
            x = self.lin(x)
        return x


class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.array(0))

    def __call__(self, x):
        self.count.value = self.count.value + 1  # nnx.jit writes variable updates back
        return x * self.count.value


class Eager(nnx.Module):
    def __init__(self, n):
        self.n = nnx.Variable(jnp.array(n))

    def __call__(self, x):
        for _ in range(self.n.value):  # eager, or under nnx.vmap unmapped: a concrete array
            x = x * 2.0
        return x


def run(module, x):
    return module(x)


if __name__ == "__main__":
    x = jnp.ones((1, 2))
    repeat = lambda: nnx.jit(lambda m, x: m(x))(Repeat(3, nnx.Rngs(0)), x)  # noqa: E731
    scaled = lambda: nnx.jit(lambda m, x: m(x))(Scaled(2), x)  # noqa: E731
    stepped = lambda: nnx.jit(lambda m, x: m.stepped(x))(Scaled(2), x)  # noqa: E731
    gate = lambda: nnx.jit(lambda m, x: m(x))(Gate(nnx.Rngs(0)), jnp.ones(3))  # noqa: E731
    from jax.errors import TracerBoolConversionError, TracerIntegerConversionError

    for hazard, error in [
        (repeat, TracerIntegerConversionError),
        (scaled, TracerIntegerConversionError),
        (stepped, TracerIntegerConversionError),
        (gate, TracerBoolConversionError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    call = nnx.jit(lambda m, x: m(x))
    assert call(Widen(nnx.Rngs(0)), jnp.ones(3)).shape == (3,)
    assert call(RepeatStatic(3, nnx.Rngs(0)), x).shape == (1, 2)
    counter = Counter()
    counted = nnx.jit(run)
    assert jnp.array_equal(counted(counter, x), x)
    assert jnp.array_equal(counted(counter, x), 2 * x)
    assert int(counter.count.get_value()) == 2
    assert jnp.array_equal(Eager(2)(x), 4 * x)
    mapped = nnx.vmap(lambda m, x: m(x), in_axes=(None, 0))(Eager(2), jnp.ones((3, 2)))
    assert jnp.array_equal(mapped, jnp.full((3, 2), 4.0))
    print("ok")

"""Under a bare `jax.grad` the differentiated argument is a JVP tracer carrying a concrete value
(measured with JAX 0.10.2): `if`, `bool()`, `int()`, `.item()` and `max` read the value; `float()`,
`complex()`, `math.*`, `.tolist()` and NumPy conversions raise; stores leak the tracer."""

import math

import jax
import jax.numpy as jnp
import numpy as np

history = []


def loss(x, scale):
    if x > 0:  # ok: Python control flow works on JVP tracers
        x = x * 2.0
    steps = int(x)  # ok
    positive = bool(x > 0)  # ok
    first = x.item()  # ok
    bound = max(x, 0.0)  # ok
    a = float(x)  # error: JAX503
    b = math.sqrt(x)  # error: JAX503
    c = x.tolist()  # error: JAX503
    d = np.asarray(x)  # error: JAX503
    e = np.maximum(x, 0.0)  # error: JAX602
    history.append(x)  # error: JAX104
    f = float(scale)  # ok: not differentiated (argnums=0), a plain value
    return jnp.sum(x) * steps * positive * first * bound * a * b * f + c + d + e


def loss_in_place(w):
    w[0] = 1.0  # error: JAX201
    return jnp.sum(w)


def train(x, w):
    return jax.grad(loss)(x, 2.0), jax.value_and_grad(loss_in_place)(w)


@jax.jit
def compiled(x):
    return jax.grad(loss_in_place)(x)


class Parameter:
    """A stand-in for an external object whose setter takes plain floats (jax#9085)."""

    def __init__(self, name):
        self.name = name
        self.value = 0.0

    def set_value(self, v):
        self.value = float(v)  # error: JAX503

    def set_label(self, label):
        self.name = str(label)  # ok: a static string


class Workspace:
    def parameter(self, name):
        return Parameter(name)


workspace = Workspace()


def likelihood(mu):
    alpha = workspace.parameter("alpha")
    alpha.set_value(mu[1])
    alpha.set_label("alpha")
    return mu[0] + alpha.value


def fit(mu):
    return jax.grad(likelihood)(mu)


if __name__ == "__main__":
    import inspect

    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    try:
        named["train"](1.0, jnp.ones(2))
    except jax.errors.ConcretizationTypeError:
        pass
    else:
        raise AssertionError("train did not raise ConcretizationTypeError")
    # `loss` stops at its first marked line: run each line of it on its own under `jax.grad`
    expected = {
        "a = float(x)": jax.errors.ConcretizationTypeError,
        "b = math.sqrt(x)": jax.errors.ConcretizationTypeError,
        "c = x.tolist()": jax.errors.ConcretizationTypeError,
        "d = np.asarray(x)": jax.errors.TracerArrayConversionError,
        "e = np.maximum(x, 0.0)": jax.errors.TracerArrayConversionError,
    }
    body = inspect.getsource(named["loss"]).splitlines()[1:-1]
    statements = ["\n".join(line[4:].split("  #")[0] for line in body[:2])] + [line.strip() for line in body[2:]]
    stored = []
    for statement in statements:
        code = statement.split("  #")[0]

        def run_line(x, code=code):
            exec(code, {"math": named["math"], "np": named["np"], "history": stored}, {"x": x, "scale": 2.0})
            return jnp.sum(x)

        if code in expected:
            try:
                jax.grad(run_line)(1.0)
            except expected[code]:
                pass
            else:
                raise AssertionError(f"{code!r} did not raise {expected[code].__name__}")
        else:
            jax.grad(run_line)(1.0)
    assert len(expected) == 5 and len(stored) == 1
    assert isinstance(stored[0], jax.core.Tracer)  # `history.append(x)` kept the JVP tracer
    for hazard, error in [
        (lambda: jax.value_and_grad(named["loss_in_place"])(jnp.ones(2)), TypeError),
        (lambda: named["compiled"](jnp.ones(2)), TypeError),
        (lambda: named["fit"](jnp.ones(2)), jax.errors.ConcretizationTypeError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    label = Parameter("a")
    label.set_label(3)
    assert label.name == "3"
    print("ok")

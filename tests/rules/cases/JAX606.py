import dataclasses
import functools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("sizes",))
def split_sum(x, sizes):
    return [jnp.sum(part) for part in jnp.split(x, sizes)]


def mlp(x, layers, activation):
    for width in layers:
        x = activation(x[:width])
    return x


mlp_jit = jax.jit(mlp, static_argnums=(1, 2))
CONFIG = {"depth": 2}


class Net:
    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, options):
        return x * len(options)


def run(x, net):
    a = split_sum(x, sizes=[2, 5])  # error: JAX606
    b = split_sum(x, [2, 5])  # error: JAX606
    c = mlp_jit(x, [4, 2], jnp.tanh)  # error: JAX606
    d = mlp_jit(x, (4, [2]), jnp.tanh)  # error: JAX606
    e = split_sum(x, jnp.array([2, 5]))  # error: JAX606
    f = split_sum(x, np.array([2, 5]))  # error: JAX606
    g = jax.jit(mlp, static_argnames="layers")(x, layers={4, 2}, activation=jnp.tanh)  # error: JAX606, JAX611
    h = net.apply(x, CONFIG)
    return a, b, c, d, e, f, g, h


class Runner:
    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, options):
        return x * len(options)

    def go(self, x):
        return self.apply(x, {"a": 1})  # error: JAX606


# --- near misses ---


def hashable(x):
    return split_sum(x, (2, 5)), split_sum(x, sizes=(2, 5)), mlp_jit(x, (4, 2), jnp.tanh)


def traced_positions(x):
    return mlp_jit([x, x], (4,), jnp.tanh)  # pytrees are fine where arguments are traced


def plain_call(x):
    return mlp(x, [4, 2], jnp.tanh)  # not through jit


def unknown_static(x, sizes, **kwargs):
    return split_sum(x, sizes), split_sum(x, *kwargs.values())


@dataclasses.dataclass
class Config:
    scale: int


@dataclasses.dataclass(frozen=True)
class FrozenConfig:
    scale: int


@dataclasses.dataclass(eq=False)
class IdentityConfig:
    scale: int


@functools.partial(jax.jit, static_argnums=1)
def configured(x, config):
    return x * config.scale


def configurations(x):
    a = configured(x, Config(3))  # error: JAX606 (a dataclass that is not frozen has no hash)
    b = configured(x, FrozenConfig(3))  # ok: frozen, hashable
    c = configured(x, IdentityConfig(3))  # ok: eq=False keeps the identity hash
    return a, b, c


@functools.partial(jax.jit, static_argnums=(1,))
def mesh(x, limits):
    return x * limits[0]


def mesh_eval(x, limits):
    return mesh(x, limits)


def mesh_eval_tuple(x, limits):
    limits = tuple(limits)
    return mesh(x, limits)


def plots(x):
    a = mesh_eval(x, [-2, 2])  # error: JAX606 (mesh_eval hands it to a static parameter)
    b = mesh_eval(x, (-2, 2))  # ok: a tuple
    c = mesh_eval_tuple(x, [-2, 2])  # ok: made a tuple before it is passed on
    return a, b, c


@functools.partial(jax.jit, static_argnums=(0,))
def add_one(dummy, x):
    return x + 1


def rebuilt_lists(x):
    dummy = [0]
    out = add_one(dummy, x)  # error: JAX606 (every binding of `dummy` is a list)
    dummy = [0]
    return add_one(dummy, out)  # error: JAX606


def list_then_tuple(x):
    dummy = [0]
    dummy = tuple(dummy)
    return add_one(dummy, x)  # ok: not every binding is a list (this one is a tuple)


if __name__ == "__main__":
    import inspect

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.arange(8.0)

    def each_line(function, namespace):
        """Run each line of `function`'s body on its own; return {line: exception or None}."""
        outcomes = {}
        for line in inspect.getsource(function).splitlines()[1:]:
            statement = line.strip()
            if not statement or statement.startswith("return"):
                continue
            try:
                exec(statement.split("  #")[0], namespace)
                outcomes[statement] = None
            except Exception as error:  # noqa: BLE001
                outcomes[statement] = error
        return outcomes

    namespace = dict(fns, x=x, net=Net())
    for function in (fns["run"], fns["configurations"], fns["plots"], fns["rebuilt_lists"], fns["list_then_tuple"]):
        for statement, outcome in each_line(function, namespace).items():
            if "JAX611" in statement:  # line 38: the traced `activation` raises first (TypeError)
                assert isinstance(outcome, TypeError), (statement, outcome)
            elif "# error:" in statement:
                assert isinstance(outcome, ValueError), (statement, outcome)  # "Non-hashable static arguments"
            elif statement.startswith(("h = net.apply", "dummy =")):
                continue  # line 39 (a dict, not claimed) raises as well; see the report
            else:
                assert outcome is None, (statement, outcome)
    namespace.update(dummy=[0], out=x)
    try:  # line 128, the `return` of `rebuilt_lists`
        exec(inspect.getsource(fns["rebuilt_lists"]).splitlines()[-1].strip()[len("return "):].split("  #")[0], namespace)
    except ValueError:
        pass
    else:
        raise AssertionError("line 128 did not raise ValueError")
    # line 38's two claims one at a time: the set alone, then the function alone
    hidden_jit = fns["jax"].jit
    for call, error in (
        (lambda: hidden_jit(mlp, static_argnames=("layers", "activation"))(x, layers={4, 2}, activation=jnp.tanh), ValueError),
        (lambda: hidden_jit(mlp, static_argnames="layers")(x, layers=(4, 2), activation=jnp.tanh), TypeError),
    ):
        try:
            call()
        except error:
            pass
        else:
            raise AssertionError(f"{call} did not raise {error.__name__}")
    try:
        Runner().go(x)
    except ValueError:
        pass
    else:
        raise AssertionError("Runner.go did not raise ValueError")
    # near misses
    assert len(fns["hashable"](x)) == 3
    assert fns["plain_call"](x).shape == (2,)
    assert len(fns["unknown_static"](x, (2, 5), more=(3,))) == 2
    print("ok")

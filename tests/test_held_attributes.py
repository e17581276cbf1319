"""An attribute its class's ``__init__`` alone stores, read through ``self`` in a method: a JAX
array stored there is a JAX array in every method, so an operation on it in staged code gives a
tracer (omnistaging); a Python number or a NumPy array stays what it is. Each verdict below was
measured with JAX 0.10.2 (the error the program raises, or none), in every form that traces the
method."""

from __future__ import annotations

import pytest

from jaxlint.engine.linter import RuleSet, lint_source
from jaxlint.engine.registry import rule_codes

RULES = RuleSet.from_codes(rule_codes())

CLASS = """import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


class M:
    def __init__(self):
        self.value = jnp.float32(1.5)
        self.count = 3
        self.table = np.arange(4.0)

    def f(self, x):
        {body}  # hazard
        return x

    def __call__(self, x):
        return self.f(x)

    def step(self, carry, x):
        return self.f(carry), x


"""
BODIES = {
    "an operation on the array, made an int": ("n = int(self.value * 3)", "JAX503"),
    "a mask computed from the array": ("x = x + self.value[None][self.value[None] > 0].sum()", "JAX401"),
    "the concrete array itself, made a float": ("n = float(self.value)", None),
    "a Python int": ("n = int(self.count * 3)", None),
    "a NumPy array": ("n = int(self.table[0] * 3)", None),
}
STAGED = {
    "a method of a module-level object, called in jit": (
        "obj = M()\n\n\n@jax.jit\ndef g(x):\n    return obj.f(x)\n"
    ),
    "a bound method jitted": "obj = M()\ng = jax.jit(obj.f)\n",
    "a callable instance jitted": "g = jax.jit(M())\n",
    "a bound method as a scan body": "obj = M()\n\n\ndef run(xs):\n    return lax.scan(obj.step, 0.0, xs)\n",
}
NOT_STAGED = {
    "a bare vmap": "obj = M()\nbatched = jax.vmap(obj.f)\n",
    "a bare grad": "obj = M()\ndf = jax.grad(obj.f)\n",
    "an eager call": "obj = M()\ny = obj.f(1.0)\n",
}


def findings(body: str, form: str) -> set[str]:
    source = CLASS.replace("{body}", body) + form
    row = next(i for i, line in enumerate(source.split("\n"), start=1) if line.endswith("# hazard"))
    return {d.code for d in lint_source(source, "held.py", RULES) if d.location.row == row}


@pytest.mark.parametrize("form", sorted(STAGED))
@pytest.mark.parametrize("body", sorted(BODIES))
def test_an_array_held_by_the_instance_is_staged_where_jax_stages_the_method(body: str, form: str) -> None:
    text, raises = BODIES[body]
    assert findings(text, STAGED[form]) == ({raises} if raises else set())


@pytest.mark.parametrize("form", sorted(NOT_STAGED))
@pytest.mark.parametrize("body", sorted(BODIES))
def test_nothing_is_claimed_where_the_method_runs_on_concrete_values(body: str, form: str) -> None:
    assert findings(BODIES[body][0], NOT_STAGED[form]) == set()


def test_an_attribute_stored_again_after_construction_is_not_known() -> None:
    form = STAGED["a bound method jitted"]
    source = CLASS.replace("{body}", BODIES["an operation on the array, made an int"][0]) + form
    source = source.replace(
        "    def __call__", "    def reset(self):\n        self.value = None\n\n    def __call__"
    )
    assert not [d for d in lint_source(source, "held.py", RULES) if d.code == "JAX503"]


def test_an_object_whose_dict_is_changed_by_name_is_not_known() -> None:
    form = STAGED["a bound method jitted"]
    source = CLASS.replace("{body}", BODIES["an operation on the array, made an int"][0]) + form
    source = source.replace(
        "    def __call__",
        "    def configure(self, overrides):\n        self.__dict__.update(overrides)\n\n    def __call__",
    )
    assert not [d for d in lint_source(source, "held.py", RULES) if d.code == "JAX503"]


OBJECTS = """import jax
import jax.numpy as jnp


class Config:
    def __init__(self):
        self.scale = jnp.float32(1.5)
        self.count = 3


CFG = Config()


@jax.jit
def direct(x):
    return jnp.tile(x, int(CFG.scale * 2))  # JAX503


@jax.jit
def python_number(x):
    return jnp.tile(x, int(CFG.count * 2))


def make():
    cfg = Config()

    @jax.jit
    def closed(x):
        return jnp.tile(x, int(cfg.scale * 2))  # JAX503

    return closed
"""


def test_the_array_is_known_through_any_name_of_the_object() -> None:
    """Not only through ``self``: a module-level object read in a jitted function, or one a
    jitted closure holds (measured: ConcretizationTypeError on both, none for the int)."""
    rows = {d.location.row for d in lint_source(OBJECTS, "objects.py", RULES) if d.code == "JAX503"}
    expected = {i for i, line in enumerate(OBJECTS.split("\n"), start=1) if line.endswith("# JAX503")}
    assert rows == expected and len(expected) == 2

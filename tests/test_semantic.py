"""The semantic model: qualified names, which functions are traced (and how), which values are."""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.transforms import ABSTRACT, CONCRETE, NONE, STAGED
from jaxlint.semantic.values import UNKNOWN, is_static, is_traced


def model_of(source: str, decorators: frozenset[str] = frozenset()) -> SemanticModel:
    return SemanticModel(ast.parse(textwrap.dedent(source)), decorators)


def function(model: SemanticModel, name: str):
    for scope in model.index.functions:
        info = model.infos[scope.node]
        if info.name == name:
            return info
    raise KeyError(name)


def level(source: str, name: str) -> int:
    return function(model_of(source), name).effective_level


def traced_params(source: str, name: str) -> set[str]:
    info = function(model_of(source), name)
    return {param for param, value in info.params.items() if is_traced(value)}


def value_of(source: str, name: str, expression: str):
    """The model's value of the first ``expression`` (by source text) inside function ``name``."""
    model = model_of(source)
    info = function(model, name)
    model.ensure(info)
    for node in ast.walk(info.node):
        if isinstance(node, ast.expr) and ast.unparse(node) == expression:
            return model.value(node, info.scope)
    raise KeyError(expression)


# ---------------------------------------------------------------------------- qualified names


@pytest.mark.parametrize(
    ("imports", "expression", "qualname"),
    [
        ("import jax", "jax.random.normal", "jax.random.normal"),
        ("import jax as j", "j.jit", "jax.jit"),
        ("import jax.numpy as jnp", "jnp.zeros", "jax.numpy.zeros"),
        ("import jax.numpy as np", "np.zeros", "jax.numpy.zeros"),
        ("import numpy as np", "np.zeros", "numpy.zeros"),
        ("from jax import numpy as jnp", "jnp.where", "jax.numpy.where"),
        ("from jax import lax", "lax.scan", "jax.lax.scan"),
        ("from jax import random", "random.split", "jax.random.split"),
        ("from jax import jit, vmap, grad", "vmap", "jax.vmap"),
        ("from jax.lax import fori_loop", "fori_loop", "jax.lax.fori_loop"),
        ("from functools import partial", "partial", "functools.partial"),
        ("import jax.random as jr", "jr.key", "jax.random.key"),
        ("import jax\njr = jax.random", "jr.normal", "jax.random.normal"),
        ("import jax", "jax.tree_util.tree_map", "jax.tree.map"),
        ("import jax", "jax.remat", "jax.checkpoint"),
        ("from jax.experimental.shard_map import shard_map", "shard_map", "jax.shard_map"),
        ("import flax.linen as nn", "nn.Module", "flax.linen.Module"),
        ("import jax", "print", "builtins.print"),
    ],
)
def test_qualified_names(imports: str, expression: str, qualname: str) -> None:
    model = model_of(f"{imports}\nvalue = {expression}\n")
    assignment = model.tree.body[-1]
    assert isinstance(assignment, ast.Assign)
    assert model.qualname(assignment.value, model.index.module) == qualname


def test_a_local_binding_shadows_an_import() -> None:
    model = model_of(
        """
        import jax.numpy as jnp

        def f(jnp):
            return jnp.zeros(3)
        """
    )
    info = function(model, "f")
    call = info.node.body[0].value
    assert model.qualname(call.func, info.scope) is None


def test_conditional_imports_of_different_modules_are_ambiguous() -> None:
    model = model_of(
        """
        try:
            import jax.numpy as xp
        except ImportError:
            import numpy as xp
        value = xp.zeros
        """
    )
    assert model.qualname(model.tree.body[-1].value, model.index.module) is None


# ---------------------------------------------------------------------------- traced functions


JIT_FORMS = [
    "@jax.jit\ndef f(x, n):\n    return x\n",
    "@partial(jax.jit, static_argnames=('n',))\ndef f(x, n):\n    return x\n",
    "@functools.partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    return x\n",
    "@jax.jit(static_argnames='n')\ndef f(x, n):\n    return x\n",
    "def f(x, n):\n    return x\nstep = jax.jit(f, static_argnums=(1,))\n",
    "def f(x, n):\n    return x\ndef main():\n    return jax.jit(f, static_argnames=['n'])(1, 2)\n",
    "def f(x, n):\n    return x\nstep = jax.jit(f, static_argnums=-1)\n",
]


@pytest.mark.parametrize("form", JIT_FORMS)
def test_jit_forms_trace_the_non_static_parameters(form: str) -> None:
    source = "import functools\nfrom functools import partial\nimport jax\n" + form
    info = function(model_of(source), "f")
    assert info.effective_level == STAGED
    assert is_traced(info.params["x"])
    expected_n_traced = form.startswith("@jax.jit\n")
    assert is_traced(info.params.get("n", UNKNOWN)) == expected_n_traced


def test_jit_applied_after_the_definition_marks_the_function() -> None:
    source = """
    import jax
    def train_step(w, g):
        return w - g
    step = jax.jit(train_step)
    """
    assert level(source, "train_step") == STAGED


def test_grad_alone_is_concrete_and_jit_of_grad_is_abstract() -> None:
    source = """
    import jax
    def loss(w, x):
        return (w * x).sum()
    def other(w):
        return w
    g = jax.grad(loss)
    h = jax.jit(jax.grad(other))
    """
    model = model_of(source)
    assert function(model, "loss").effective_level == CONCRETE
    assert function(model, "other").effective_level == STAGED


def test_vmap_in_axes_none_leaves_a_parameter_untraced() -> None:
    source = """
    import jax
    def f(x, table, scale):
        return x
    g = jax.vmap(f, in_axes=(0, None, 0))
    """
    assert traced_params(source, "f") == {"x", "scale"}


def test_partial_binds_leading_parameters() -> None:
    source = """
    import functools, jax
    def f(config, x, y=None):
        return x
    g = jax.jit(functools.partial(f, {"depth": 2}))
    """
    assert traced_params(source, "f") == {"x", "y"}


def test_parameters_with_python_defaults_stay_unknown_under_jit() -> None:
    source = """
    import jax
    @jax.jit
    def f(x, mode="fast", bias=None):
        return x
    """
    assert traced_params(source, "f") == {"x", "bias"}


def test_lax_bodies_and_lambdas_are_traced() -> None:
    source = """
    from jax import lax
    def body(i, carry):
        return carry
    def run(x, pred):
        y = lax.fori_loop(0, 3, body, x)
        return lax.cond(pred, lambda v: v, lambda v: -v, y)
    """
    model = model_of(source)
    assert traced_params(source, "body") == {"i", "carry"}
    lambdas = [model.infos[s.node] for s in model.index.functions if isinstance(s.node, ast.Lambda)]
    assert len(lambdas) == 2 and all(info.effective_level == STAGED for info in lambdas)
    assert function(model, "run").effective_level == NONE


def test_nested_functions_inherit_the_traced_context() -> None:
    source = """
    import jax
    @jax.jit
    def outer(x):
        def inner(y):
            return y
        return inner(x)
    """
    model = model_of(source)
    inner = function(model, "inner")
    assert inner.effective_level == STAGED
    assert is_traced(inner.params["y"])


def test_helpers_are_traced_with_exactly_the_traced_parameters() -> None:
    source = """
    import jax
    def helper(x, n, scale):
        return x * scale
    def recursive(x, depth):
        return recursive(x, depth - 1) if depth else x
    @jax.jit
    def step(x, y):
        z = helper(x, 3, y)
        return recursive(z, 4)
    """
    model = model_of(source)
    helper = function(model, "helper")
    assert helper.effective_level == STAGED
    assert {p for p, v in helper.params.items() if is_traced(v)} == {"x", "scale"}
    assert "called from traced `step`" in helper.why
    assert traced_params(source, "recursive") == {"x"}


def test_methods_called_through_self_are_helpers() -> None:
    source = """
    import jax
    class Model:
        def helper(self, v):
            return v
        @jax.jit
        def __call__(self, x):
            return self.helper(x)
    """
    model = model_of(source)
    assert traced_params(source, "helper") == {"v"}
    assert not is_traced(function(model, "__call__").params.get("self", UNKNOWN))


def test_callbacks_run_on_the_host() -> None:
    source = """
    import jax
    @jax.jit
    def f(x):
        def host(v):
            return v
        return jax.pure_callback(host, x, x)
    """
    assert level(source, "host") == NONE


def test_flax_module_call_traces_array_annotated_inputs() -> None:
    source = """
    import jax
    import flax.linen as nn
    class Dense(nn.Module):
        features: int
        @nn.compact
        def __call__(self, x: jax.Array, train: bool, scale=1.0, other=None):
            return x
    """
    info = function(model_of(source), "__call__")
    assert info.effective_level == ABSTRACT
    assert is_traced(info.params["x"])
    assert is_static(info.params["train"]) and is_static(info.params["scale"])
    assert "other" not in info.params


def test_equinox_filter_jit_traces_only_array_annotations() -> None:
    source = """
    import jax
    import equinox as eqx
    @eqx.filter_jit
    def f(model, x: jax.Array, n: int):
        return x
    """
    info = function(model_of(source), "f")
    assert is_traced(info.params["x"]) and is_static(info.params["n"])
    assert "model" not in info.params


def test_user_configured_decorators() -> None:
    source = """
    import jax
    from mylib import compile
    @compile
    def f(x):
        return x
    """
    model = model_of(source, frozenset({"mylib.compile"}))
    assert function(model, "f").effective_level == STAGED


def test_unknown_decorators_between_a_transform_and_the_function_stop_the_chain() -> None:
    source = """
    import jax
    from mylib import rewrite
    @jax.jit
    @rewrite
    def f(x):
        return x
    """
    assert level(source, "f") == NONE


# ---------------------------------------------------------------------------- values


STATIC_EXPRESSIONS = [
    "x.shape",
    "x.shape[0] // 2",
    "x.ndim",
    "x.dtype",
    "len(x)",
    "isinstance(x, tuple)",
    "x is None",
    "type(x)",
    "n",
    "3",
    "jnp.float32",
]


@pytest.mark.parametrize("expression", STATIC_EXPRESSIONS)
def test_static_values(expression: str) -> None:
    source = f"""
    import functools, jax
    import jax.numpy as jnp
    @functools.partial(jax.jit, static_argnames=("n",))
    def f(x, n):
        return {expression}
    """
    value = value_of(source, "f", expression)
    assert is_static(value) and not is_traced(value)


TRACED_EXPRESSIONS = ["x", "x + 1", "x[0]", "x.sum()", "jnp.sin(x)", "x > 0", "x.T", "-x", "y"]


@pytest.mark.parametrize("expression", TRACED_EXPRESSIONS)
def test_traced_values(expression: str) -> None:
    source = f"""
    import jax
    import jax.numpy as jnp
    @jax.jit
    def f(x):
        y = jnp.cos(x) * 2
        return {expression}
    """
    assert is_traced(value_of(source, "f", expression))


def test_flow_sensitivity_rebinding_a_parameter_to_a_shape() -> None:
    source = """
    import jax
    import jax.numpy as jnp
    @jax.jit
    def f(x, n):
        n = x.shape[0]
        return jnp.zeros(n)
    """
    assert is_static(value_of(source, "f", "jnp.zeros(n)".replace("jnp.zeros(n)", "n")))


def test_loop_indices_of_static_ranges_are_static_and_containers_of_tracers_are_traced() -> None:
    source = """
    import jax
    @jax.jit
    def f(x):
        parts = []
        for i in range(3):
            parts.append(x * i)
        return parts, i
    """
    model = model_of(source)
    info = function(model, "f")
    returned = info.node.body[-1].value
    parts, index = returned.elts
    assert is_traced(model.value(parts, info.scope))
    assert is_static(model.value(index, info.scope))


def test_isinstance_narrows_to_a_python_value() -> None:
    source = """
    import jax
    @jax.jit
    def f(x, s):
        if isinstance(s, float):
            return s > 1
        return s > 1
    """
    model = model_of(source)
    info = function(model, "f")
    model.ensure(info)
    compares = sorted((n for n in ast.walk(info.node) if isinstance(n, ast.Compare)), key=lambda n: n.lineno)
    first, second = compares
    assert is_static(model.value(first, info.scope))
    assert is_traced(model.value(second, info.scope))


def test_the_same_import_repeated_still_resolves() -> None:
    model = model_of("import jax\nimport jax\nfrom jax import numpy as jnp\nvalue = jax.jit\n")
    assert model.qualname(model.tree.body[-1].value, model.index.module) == "jax.jit"


SHAPES_THEN_JIT = """
import jax

def helper(q):
    return q * 2

def step(p):
    return helper(p) + 1

def use(params):
    return jax.eval_shape(step, params)
"""


@pytest.mark.parametrize("jitted", [False, True])
def test_functions_only_traced_for_shapes_and_what_they_call(jitted: bool) -> None:
    """Under `jax.eval_shape` a function is traced, never run; jitted later, it runs, and so do the
    helpers it calls, whichever order the model met the two in."""
    model = model_of(SHAPES_THEN_JIT + ("fast = jax.jit(step)\n" if jitted else ""))
    for name in ("step", "helper"):
        assert function(model, name).effective_level == STAGED
        assert function(model, name).only_traced_for_shapes is not jitted


@pytest.mark.parametrize("cached", [False, True])
def test_a_released_model_leaves_no_cycles_for_the_collector(cached: bool) -> None:
    """Checking pauses the cycle collector per file; whatever the model leaves in reference
    cycles is found by the next collection, which walks it all (a whole syntax tree: that cost
    1.5 s over the 450k-line corpus when the scope walk kept its visitors as bound methods)."""
    import gc

    from jaxlint.engine.incremental import Incremental
    from jaxlint.engine.linter import analyze
    from jaxlint.project.config import Settings
    from jaxlint.project.settings import SettingsCache

    source = textwrap.dedent(
        """\
        import jax

        @jax.jit
        def step(key, x):
            noise = jax.random.normal(key, x.shape)
            print(x)
            return [x + noise for _ in range(3)], lambda y: y
        """
    )
    ruleset = SettingsCache().ruleset_for(Settings(), "m.py")
    incremental = Incremental() if cached else None
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(2):
            analysis = analyze(source, "m.py", ruleset, incremental=incremental)
            assert [d.code for d in analysis.diagnostics] == ["JAX101"]
            assert analysis.model is not None
            analysis.model.release()
            del analysis
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_a_default_left_out_by_every_call_of_a_jitted_function_is_not_traced() -> None:
    source = """
    import jax
    def loss(x, axis=None, mask=None, scale=None):
        return x
    def run(x, m):
        f = jax.jit(loss)
        return f(x) + f(x, mask=m) + jax.jit(loss)(x, None, None, 2.0)
    def handed_on(x):
        f = jax.jit(loss)
        return apply(f, x)
    """
    info = function(model_of(source), "loss")
    assert {p for p, v in info.params.items() if is_traced(v)} == {"x", "mask", "scale", "axis"}
    only_run = source.replace("return apply(f, x)", "return x")
    only_run = only_run.replace(", None, None, 2.0)", ")")
    assert traced_params(only_run, "loss") == {"x", "mask"}


def test_values_cross_modules_and_the_cache_as_the_same_portable_data() -> None:
    """What a module tells another (and the cache keeps) is the value without this analysis's
    syntax-tree references or key identities, and JSON gives back exactly that: a record's
    fields, a tuple's items, a dict's entries."""
    from jaxlint.semantic import values as v

    module = ast.parse("class State: pass")
    state = module.body[0]
    assert isinstance(state, ast.ClassDef)
    record = v.record(v.InstanceRef(state), [("x", v.TRACED_ARRAY), ("n", v.STATIC)], is_tuple=True)
    keyed = v.with_keys(v.TRACED_ARRAY, frozenset({"key-of-this-analysis"}))
    nested = v.mapping([("params", v.sequence([keyed, v.STATIC])), (1.5, record)])
    for value in (record, keyed, nested, v.sequence([v.TRACED, v.CONTAINER])):
        portable = v.portable(value)
        assert v.from_json(json_round_trip(v.to_json(value))) == portable
        assert not v.refs(portable) and not v.all_key_ids(portable)
    moved = v.portable(record)
    assert v.field_of(moved, "x") == v.TRACED_ARRAY and v.record_kind(moved) == "tuple"
    replaced = v.with_fields(moved, {"x": v.STATIC})
    assert replaced is not None and v.field_of(replaced, "x") == v.STATIC and v.is_static(replaced)


def json_round_trip(data: object) -> object:
    import json

    return json.loads(json.dumps(data))


KEY_USERS = """
import jax
import jax.numpy as jnp
from jax import lax
from jax.random import normal


def passes_a_variable(x, t, beta):
    return jnp.issubdtype(x, t) and max(x, beta)


def splits_an_array(x):
    return jnp.split(x, 2) + lax.split(x, [1, 1])


def maps_a_sampler(keys):
    return jax.vmap(normal)(keys)


def maps_a_qualified_sampler(keys):
    return jax.vmap(jax.random.uniform)(keys)


def draws(key):
    return jax.random.normal(key)


def calls_a_drawing_helper(key):
    return draws(key)
"""


@pytest.mark.parametrize(
    ("name", "may_draw"),
    [
        ("passes_a_variable", False),  # `t` and `beta` name jax.random functions, but are variables
        ("splits_an_array", False),  # `jnp.split` and `lax.split` take no key
        ("maps_a_sampler", True),
        ("maps_a_qualified_sampler", True),
        ("draws", True),
        ("calls_a_drawing_helper", True),
    ],
)
def test_only_functions_that_may_draw_have_their_keys_followed(name: str, may_draw: bool) -> None:
    """Keys are followed (the interpreter runs on an eager function for them) only where a key
    may be consumed: a variable named like a jax.random function, or JAX's array `split`, is none."""
    model = model_of(KEY_USERS)
    assert model.may_use_keys(function(model, name)) is may_draw


@pytest.mark.parametrize(
    ("test", "names", "value"),
    [
        ("rate == 0.0 or deterministic", {"rate": 0.5, "deterministic": True}, True),
        ("rate == 0.0 or deterministic", {"rate": 0.5}, "unknown"),
        ("rate == 0.0 or deterministic", {"rate": 0.0}, True),  # decided before the unknown
        ("train and rate > 0.0", {"train": False}, False),
        ("not train", {"train": True}, False),
        ('mode == "eval"', {"mode": "train"}, False),
        ("std is None", {"std": None}, True),
        ("0 < k <= n", {"k": 3, "n": 2}, False),
        ("x.shape[0] > 1", {"x": 1}, "unknown"),  # only names, literals and operators
        ('"a" < n', {"n": 1}, "unknown"),  # a comparison that raises decides nothing
    ],
)
def test_a_call_decides_a_test_of_its_constants(test: str, names: dict, value: object) -> None:
    """What a call passing constants decides of a helper's `if` on its parameters (the draw
    under it is skipped where the call makes it false)."""
    from jaxlint.engine.astutil import NOT_CONSTANT, constant_value

    found = constant_value(ast.parse(test, mode="eval").body, names)
    assert (found is NOT_CONSTANT) if value == "unknown" else (found == value and found is not NOT_CONSTANT)

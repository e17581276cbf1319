"""JAX606: an unhashable value (a list, dict, set or array) passed as a static argument."""

from __future__ import annotations

import ast
import sys

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import is_jax_array, is_mapping, is_static

from ..support.classes import dataclass_options, self_static_at
from ..support.explain import snippet
from ..support.jitted import declares_static, jitted_callee, jitted_callee_in, opaque_static_arguments
from .treedefs import aux_data_arrays, static_field_arrays

DISPLAYS = {
    ast.List: "a list",
    ast.ListComp: "a list",
    ast.Dict: "a dict",
    ast.DictComp: "a dict",
    ast.Set: "a set",
    ast.SetComp: "a set",
}
NUMPY_ARRAYS = frozenset(
    f"numpy.{name}"
    for name in ["array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye"]
)
CONTAINER_BUILTINS = {
    "builtins.list": "a list",
    "builtins.dict": "a dict",
    "builtins.set": "a set",
    "builtins.bytearray": "a bytearray",
    "collections.OrderedDict": "an `OrderedDict`",
    "collections.defaultdict": "a `defaultdict`",
    "collections.Counter": "a `Counter`",
    "collections.deque": "a `deque`",
    "types.SimpleNamespace": "a `SimpleNamespace` (it defines `__eq__`, so its `__hash__` is None)",
    "argparse.Namespace": "an `argparse.Namespace` (it defines `__eq__`, so its `__hash__` is None)",
}
# slices are hashable from Python 3.12 on: claimed where the Python running jaxlint predates it
if sys.version_info < (3, 12):
    CONTAINER_BUILTINS["builtins.slice"] = "a slice (unhashable before Python 3.12)"


class UnhashableStaticArgument(Rule):
    """## What it does
    Finds a call of a jitted function that passes a list, dict or set (a literal, a comprehension,
    `list(...)`, or a name bound once to one), another unhashable standard object (an
    `OrderedDict`, a `deque`, a `SimpleNamespace`, an `argparse.Namespace`), a tuple holding
    one, or an array (a JAX array, or a NumPy array made on the spot) in a position that
    `static_argnums` / `static_argnames` declares
    static; and an array of several elements (its shape or items written out) stored in a static
    field of an equinox module (`eqx.field(static=True)`) or a flax struct
    (`flax.struct.field(pytree_node=False)`); and a method jitted with `self` static in a
    `@dataclass` that is neither frozen nor `unsafe_hash` (Python sets its `__hash__` to None),
    or one that is, with a field annotated as an array (the generated `__hash__` hashes it).

    ## Why is this bad?
    JAX looks static arguments up in its compilation cache by hash, so they must be hashable:
    lists, dicts, sets and arrays are not, and the call raises `ValueError: Non-hashable static
    arguments are not supported`. A static field is part of the pytree's structure, which JAX
    compares with `==`: for arrays that raises `ValueError` once a second object reaches a
    jitted function (equinox warns "A JAX array is being set as static!"). Pass a tuple (or a frozen dataclass) instead, or make the
    parameter an ordinary traced argument (arrays belong there).

    ## Example
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnames=("sizes",))
    def split_sum(x, sizes):
        return [jnp.sum(part) for part in jnp.split(x, sizes)]

    parts = split_sum(jnp.arange(10.0), sizes=[2, 5])
    ```

    ## Use instead
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnames=("sizes",))
    def split_sum(x, sizes):
        return [jnp.sum(part) for part in jnp.split(x, sizes)]

    parts = split_sum(jnp.arange(10.0), sizes=(2, 5))
    ```

    ## Fix safety
    No automatic fix: a tuple is hashable, but the function may rely on the argument being a
    list (appending to it, say).

    ## References
    - [jax.jit: static_argnums](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)
    """

    code = "JAX606"
    name = "unhashable-static-argument"
    message = "An unhashable value is passed as a static argument of a jitted function"
    outcome = "ValueError: Non-hashable static arguments are not supported"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not declares_static(ctx):
            if _names_static_arguments(ctx):
                for where, argument in opaque_static_arguments(ctx, node):
                    self.check(argument, where, ctx)
            return
        callee = jitted_callee(ctx, node)
        if callee is not None:
            for parameter, argument in callee.static_arguments(node):
                self.check(argument, f"static argument `{parameter}` of jitted `{callee.info.name}`", ctx)
            return
        for argument, relay in _relayed_static_arguments(ctx, node):
            self.check(argument, relay, ctx)
        for where, argument in opaque_static_arguments(ctx, node):
            self.check(argument, where, ctx)

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        """An array in a static field of an equinox module or a flax struct, or in the auxiliary
        data of a class's own ``tree_flatten``: both are part of the treedef, which JAX compares
        with ``==`` when it looks up a compiled program."""
        for field, where, kind in static_field_arrays(ctx, node):
            ctx.report(
                where,
                f"static field `{field}` of `{node.name}` holds {kind}: JAX compares static fields with "
                f"`==` when it looks up a compiled program, and for two array objects of several "
                f"elements that raises `ValueError` (a jitted function given a `{node.name}` built "
                f"apart from the first); make `{field}` an ordinary field",
            )
        if _unhashable_dataclass(ctx, node):
            self.check_static_self(node, ctx)
        field = _hashed_array_field(ctx, node)
        if field is not None:
            self.check_static_self(node, ctx, field)
        for attr, where, kind in aux_data_arrays(ctx, node):
            ctx.report(
                where,
                f"`{snippet(ctx, where)}` puts {kind} into the auxiliary data of `{node.name}`'s "
                f"`tree_flatten`: JAX compares the treedef, auxiliary data included, with `==` when "
                f"it looks up a compiled program, and for two array objects of several elements that "
                f"raises `ValueError` (a jitted function given a `{node.name}` built apart from the "
                f"first); return `self.{attr}` among the children",
            )

    def check_static_self(self, cls: ast.ClassDef, ctx: Context, array_field: str | None = None) -> None:
        """``@partial(jax.jit, static_argnums=0)`` on a method of an unhashable dataclass: every
        call passes the object as a static argument, and it has no hash (or, ``array_field``,
        one that hashes an array)."""
        for statement in cls.body:
            info = ctx.model.infos.get(statement) if isinstance(statement, ast.FunctionDef) else None
            if info is None or not info.positional_names():
                continue
            site = next((s for s in info.jit_sites if self_static_at(info, s)), None)
            if site is None:
                continue
            this = info.positional_names()[0]
            if array_field is not None:
                ctx.report(
                    site,
                    f"`{this}` is static in `{cls.name}.{info.name}`, so every call hashes it, and the "
                    f"`__hash__` the dataclass generates hashes field `{array_field}`, an array, which has "
                    f"no hash: the call raises `ValueError: Non-hashable static arguments are not "
                    f"supported`; keep `{this}` traced: register `{cls.name}` as "
                    f"a pytree (`jax.tree_util.register_dataclass`) and drop `static_argnums`",
                )
                continue
            ctx.report(
                site,
                f"`{this}` is static in `{cls.name}.{info.name}`, but `{cls.name}` "
                f"is a `@dataclass` that is neither frozen nor `unsafe_hash`, so Python sets its "
                f"`__hash__` to None: every call raises `ValueError: Non-hashable static arguments are "
                f"not supported`; declare the dataclass `frozen=True`, which makes it hashable",
            )

    def check(self, argument: ast.expr, where: str, ctx: Context) -> None:
        kind = _unhashable(ctx, argument)
        if kind is None:
            return
        if "dataclass" in kind:
            cure = "declare the dataclass `frozen=True`, which makes it hashable"
        elif "array" in kind:
            cure = "pass it as an ordinary (traced) argument"
        else:
            cure = "pass a tuple (or another hashable value)"
        ctx.report(
            argument,
            f"`{snippet(ctx, argument)}` is {kind}, passed as {where}: static arguments must be "
            f"hashable, so JAX raises `ValueError: Non-hashable static arguments are not supported`; "
            f"{cure}",
        )


def _names_static_arguments(ctx: Context) -> bool:
    """Whether the source names static arguments at all (a cheap gate, memoised)."""
    found = ctx.memo.get("names-static")
    if found is None:
        found = ctx.memo["names-static"] = any("static_" in line for line in ctx.lines)
    return found


# flax's frozen dicts: hashable only where every value is
FROZEN_DICTS = frozenset({"flax.core.FrozenDict", "flax.core.frozen_dict.FrozenDict", "flax.core.freeze"})


def _unhashable(ctx: Context, node: ast.expr, depth: int = 0) -> str | None:
    """What unhashable thing ``node`` certainly evaluates to, or None."""
    if depth > 8:
        return None
    for kind, description in DISPLAYS.items():
        if isinstance(node, kind):
            return description
    if isinstance(node, ast.Tuple):
        inner = next((k for e in node.elts if (k := _unhashable(ctx, e, depth + 1))), None)
        return None if inner is None else f"a tuple holding {inner}"
    if isinstance(node, ast.Call):
        view = _dict_view(ctx, node)
        if view is not None:
            return view
        qualname = ctx.qualname(node.func)
        if qualname in NUMPY_ARRAYS:
            return "a NumPy array"
        if qualname in CONTAINER_BUILTINS:
            return CONTAINER_BUILTINS[qualname]
        if qualname in FROZEN_DICTS and node.args and isinstance(node.args[0], ast.Dict):
            held = next((v for v in node.args[0].values if is_jax_array(ctx.value(v))), None)
            if held is not None:  # a frozen dict hashes its values
                return f"a `FrozenDict` holding a JAX array (`{snippet(ctx, held)}`)"
        cls = ctx.model.class_named(node.func, ctx.scope)
        if cls is not None and _unhashable_dataclass(ctx, cls):
            return f"an instance of `{cls.name}`, a dataclass that is not frozen (its `__hash__` is None)"
        if cls is not None and _hashes_its_fields(ctx, cls):
            held = [
                (a, inner)
                for a in [*node.args, *(k.value for k in node.keywords)]
                if (inner := _unhashable(ctx, a, depth + 1))
            ]
            if held:  # `PoolConfig(window=2, axes=[0])`: its hash hashes the list
                argument, inner = held[0]
                return f"an instance of `{cls.name}`, whose hash hashes its fields, holding {inner} (`{snippet(ctx, argument)}`)"
    if isinstance(node, ast.Name):
        owner = ctx.scope.lookup(node.id)
        values = _bindings(owner, node.id) if owner is not None else []
        if values and all(v is not None and not isinstance(v, ast.Name) for v in values):
            found = {_unhashable(ctx, v, depth + 1) for v in values}  # pyright: ignore[reportArgumentType]
            if len(found) == 1 and None not in found:
                return found.pop()
    value = ctx.value(node)
    if is_jax_array(value) and not is_static(value):
        return "a JAX array"
    return None


def _dict_view(ctx: Context, node: ast.Call) -> str | None:
    """``weights.keys()`` or ``.items()`` of a dict: a view, which does not hash (``.values()``
    does, by identity)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("keys", "items")) or node.args or node.keywords:
        return None
    if not is_mapping(ctx.value(func.value)):
        return None
    return f"a `dict_{func.attr}` view"


def _bindings(owner: Scope, name: str) -> list[ast.expr | None]:
    """What each binding of ``name`` in ``owner`` assigns (None for a binding that is not a plain
    ``name = value``: a loop target, a parameter, an import...)."""
    if owner.bound.get(name) == 1:
        return [owner.single_value(name)]
    body = getattr(owner.node, "body", None)
    if not isinstance(body, list):
        return [None]
    values: list[ast.expr | None] = [
        n.value
        for n in own_nodes(body)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
    ]
    return values if len(values) == owner.bound.get(name) else [None]


def _unhashable_dataclass(ctx: Context, cls: ast.ClassDef) -> bool:
    """``@dataclasses.dataclass`` with ``eq`` and neither ``frozen`` nor ``unsafe_hash`` (nor a
    ``__hash__`` of its own): the decorator sets ``__hash__`` to None."""
    flags = dataclass_options(ctx, cls)
    return (
        flags is not None
        and flags.get("eq", True)
        and not flags.get("frozen")
        and not flags.get("unsafe_hash")
        and not _own_hash(cls)
    )


def _hashes_its_fields(ctx: Context, cls: ast.ClassDef) -> bool:
    """A ``typing.NamedTuple`` class, an equinox module, or a frozen dataclass with every field
    compared: its hash hashes every field it is built with. Not where the class may convert what it is given
    (``__new__``, ``__post_init__``) or hashes otherwise, nor where a ``field(...)`` may leave
    one out of the hash."""
    defined = {name for s in cls.body for name in _names_defined(s)}
    if defined & {"__hash__", "__new__", "__post_init__"}:
        return False
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    if any(ctx.model.qualname(base, scope) == "typing.NamedTuple" for base in cls.bases):
        return True
    pytree = ctx.model.pytree_class(cls)
    if pytree is not None and pytree.only_arrays_traced:
        return True  # an equinox module: a frozen dataclass of its fields
    flags = dataclass_options(ctx, cls)
    if flags is None or not flags.get("eq", True) or not flags.get("frozen"):
        return False
    return not any(
        isinstance(s, ast.AnnAssign) and isinstance(s.value, ast.Call) for s in cls.body
    )  # `axes: list = field(hash=False)`


def _own_hash(cls: ast.ClassDef) -> bool:
    return any(
        isinstance(s, (ast.FunctionDef, ast.Assign)) and "__hash__" in _names_defined(s) for s in cls.body
    )


ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "numpy.ndarray", "jaxtyping.Array"})


def _hashed_array_field(ctx: Context, cls: ast.ClassDef) -> str | None:
    """A field annotated as an array in a ``@dataclass(frozen=True)`` (or ``unsafe_hash``) with
    the ``__hash__`` it generates: that hash hashes each field, and an array has no hash."""
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    flags = dataclass_options(ctx, cls)
    if flags is None or not flags.get("eq", True) or not (flags.get("frozen") or flags.get("unsafe_hash")):
        return None
    if _own_hash(cls):
        return None
    for statement in cls.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        if statement.value is not None:
            continue  # `field(hash=False)`, `field(compare=False)` or a default: not followed
        if ctx.model.qualname(statement.annotation, scope) in ARRAY_ANNOTATIONS:
            return statement.target.id
    return None


def _names_defined(statement: ast.stmt) -> set[str]:
    if isinstance(statement, ast.FunctionDef):
        return {statement.name}
    if isinstance(statement, ast.Assign):
        return {t.id for t in statement.targets if isinstance(t, ast.Name)}
    return set()


def _relayed_static_arguments(ctx: Context, call: ast.Call) -> list[tuple[ast.expr, str]]:
    """Arguments of a call to a plain function of this module that hands a parameter on, as it
    is, to a static parameter of a jitted function (``mesh_eval(f, [-2, 2])`` where
    ``mesh_eval`` calls ``_mesh_eval(f, x_limits)`` with ``x_limits`` static), with where they
    land."""
    found = ctx.model.resolve_function(call.func, ctx.scope)
    if found is None:
        return []
    relay, offset = found
    relayed = _static_relays(ctx, relay)
    if not relayed:
        return []
    positional = relay.positional_names()
    pairs: list[tuple[str, ast.expr]] = []
    for index, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred):
            break
        if index + offset < len(positional):
            pairs.append((positional[index + offset], argument))
    pairs += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
    return [(argument, relayed[name]) for name, argument in pairs if name in relayed]


def _static_relays(ctx: Context, relay: FunctionInfo) -> dict[str, str]:
    """The parameters of ``relay`` that it passes, never rebound, as static arguments of a
    jitted function, each with where it lands."""
    memo = ctx.memo.setdefault("static-relays", {})
    if relay.node not in memo:
        memo[relay.node] = _find_static_relays(ctx, relay)
    return memo[relay.node]


def _find_static_relays(ctx: Context, relay: FunctionInfo) -> dict[str, str]:
    body = relay.node.body
    inner = ctx.model.index.scopes.get(relay.node)
    if not isinstance(body, list) or inner is None or relay.jit_sites:
        return {}
    params = {*relay.positional_names(), *_keyword_names(relay)}
    found: dict[str, str] = {}
    for node in own_nodes(body):
        callee = jitted_callee_in(ctx, node, inner) if isinstance(node, ast.Call) else None
        if callee is None or not isinstance(node, ast.Call):
            continue
        for parameter, argument in callee.static_arguments(node):
            name = argument.id if isinstance(argument, ast.Name) else None
            if name in params and inner.bound.get(name) == 1:
                found[name] = (
                    f"`{name}` of `{relay.name}`, which hands it to jitted `{callee.info.name}` as "
                    f"static argument `{parameter}` at line {node.lineno}"
                )
    return found


def _keyword_names(info: FunctionInfo) -> set[str]:
    return {a.arg for a in info.node.args.kwonlyargs}

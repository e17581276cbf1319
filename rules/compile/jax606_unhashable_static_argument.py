"""JAX606: an unhashable value (a list, dict, set or array) passed as a static argument."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import NONE
from jaxlint.semantic.values import is_jax_array, is_static, refs

from ..support.explain import snippet
from ..support.jitted import declares_static, jitted_callee, jitted_callee_in

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
# `eqx.field(static=True)`, `flax.struct.field(pytree_node=False)`: a field kept in the treedef
STATIC_FIELDS = {"equinox.field": ("static", True), "flax.struct.field": ("pytree_node", False)}
CONTAINER_BUILTINS = {"builtins.list": "a list", "builtins.dict": "a dict", "builtins.set": "a set"}


class UnhashableStaticArgument(Rule):
    """## What it does
    Finds a call of a jitted function that passes a list, dict or set (a literal, a comprehension,
    `list(...)`, or a name bound once to one), a tuple holding one, or an array (a JAX array, or a
    NumPy array made on the spot) in a position that `static_argnums` / `static_argnames` declares
    static; and an array of several elements (its shape or items written out) stored in a static
    field of an equinox module (`eqx.field(static=True)`) or a flax struct
    (`flax.struct.field(pytree_node=False)`).

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
            return
        callee = jitted_callee(ctx, node)
        if callee is not None:
            for parameter, argument in callee.static_arguments(node):
                self.check(argument, f"static argument `{parameter}` of jitted `{callee.info.name}`", ctx)
            return
        for argument, relay in _relayed_static_arguments(ctx, node):
            self.check(argument, relay, ctx)

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        """An array in a static field of an equinox module or a flax struct: the field is part of
        the treedef, which JAX compares with ``==`` when it looks up a compiled program."""
        scope = ctx.model.index.scopes.get(node)
        if scope is None:
            return
        if node in ctx.model.pytree_fields.custom_classes:
            self.check_aux_data(node, ctx)
        fields = [s for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        for position, statement in enumerate(fields):
            if not _static_field(ctx, statement.value, scope):
                continue
            field = statement.target.id  # pyright: ignore[reportAttributeAccessIssue]
            where, kind = _array_in_field(ctx, node, field, scope)
            if where is None:
                where, kind = _array_in_construction(ctx, node, field, position)
                where = None if where is None else statement
            if where is None:
                continue
            ctx.report(
                where,
                f"static field `{field}` of `{node.name}` holds {kind}: JAX compares static fields with "
                f"`==` when it looks up a compiled program, and for two array objects of several "
                f"elements that raises `ValueError` (a jitted function given a `{node.name}` built "
                f"apart from the first); make `{field}` an ordinary field",
            )

    def check_aux_data(self, cls: ast.ClassDef, ctx: Context) -> None:
        """A class with its own ``tree_flatten`` that puts ``self.x`` in the auxiliary data, where
        the module builds it with an array of several elements for ``x``: the auxiliary data is
        part of the treedef, compared with ``==`` like a static field."""
        init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is None or len(init.args.args) < 2:
            return
        this = init.args.args[0].arg
        params = [a.arg for a in init.args.args[1:]]
        for attr, where in _aux_attributes(cls):
            param = _stored_parameter(init, this, attr, params)
            if param is None:
                continue
            given, kind = _array_in_construction(ctx, cls, param, params.index(param), through_init=True)
            if given is None:
                continue
            ctx.report(
                where,
                f"`{snippet(ctx, where)}` puts {kind} into the auxiliary data of `{cls.name}`'s "
                f"`tree_flatten`: JAX compares the treedef, auxiliary data included, with `==` when "
                f"it looks up a compiled program, and for two array objects of several elements that "
                f"raises `ValueError` (a jitted function given a `{cls.name}` built apart from the "
                f"first); return `self.{attr}` among the children",
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
        qualname = ctx.qualname(node.func)
        if qualname in NUMPY_ARRAYS:
            return "a NumPy array"
        if qualname in CONTAINER_BUILTINS:
            return CONTAINER_BUILTINS[qualname]
        cls = ctx.model.class_named(node.func, ctx.scope)
        if cls is not None and _unhashable_dataclass(ctx, cls):
            return f"an instance of `{cls.name}`, a dataclass that is not frozen (its `__hash__` is None)"
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


def _bindings(owner: Scope, name: str) -> list[ast.expr | None]:
    """What each binding of ``name`` in ``owner`` assigns (None for a binding that is not a plain
    ``name = value``: a loop target, a parameter, an import...)."""
    if owner.bound.get(name) == 1:
        return [owner.assigned.get(name)]
    body = getattr(owner.node, "body", None)
    if not isinstance(body, list):
        return [None]
    values: list[ast.expr | None] = [
        n.value
        for n in own_nodes(body)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
    ]
    return values if len(values) == owner.bound.get(name) else [None]


def _static_field(ctx: Context, value: ast.expr | None, scope: Scope) -> bool:
    """``eqx.field(static=True)``, ``eqx.static_field()`` or ``flax.struct.field(pytree_node=False)``."""
    if not isinstance(value, ast.Call):
        return False
    qualname = ctx.model.qualname(value.func, scope)
    if qualname == "equinox.static_field":
        return keyword_argument(value, "converter") is None
    option = STATIC_FIELDS.get(qualname or "")
    if keyword_argument(value, "converter") is not None:
        return False  # equinox stores what the converter makes of the value
    return option is not None and any(
        k.arg == option[0] and isinstance(k.value, ast.Constant) and k.value.value is option[1]
        for k in value.keywords
    )


def _array_in_field(ctx: Context, cls: ast.ClassDef, field: str, scope: Scope) -> tuple[ast.AST | None, str]:
    """Where an array of several elements goes into the field (a store on ``self``, in
    ``__init__`` say), and what it is. A 0-d array compares to a bool and works (equinox only
    warns), so the array must show its size: a shape or a list of several elements."""
    for store in ctx.model.self_stores(cls).get(field, []):
        value = store.value
        if not isinstance(value, ast.Call):
            continue
        method_scope = ctx.model.index.scopes.get(store.method, scope)
        qualname = ctx.model.qualname(value.func, method_scope) or ""
        if not _several_elements(qualname, value):
            continue
        if qualname.startswith("numpy."):
            return store.target, "a NumPy array"
        if is_jax_array(ctx.model.value(value, method_scope)):
            return store.target, "a JAX array"
    return None, ""


def _aux_attributes(cls: ast.ClassDef) -> list[tuple[str, ast.Attribute]]:
    """The ``self.x`` read in the auxiliary data a class's own ``tree_flatten`` returns
    (``return children, (self.x,)``, or through one name assigned in the method)."""
    method = next(
        (
            s
            for s in cls.body
            if isinstance(s, ast.FunctionDef) and s.name in ("tree_flatten", "_tree_flatten")
        ),
        None,
    )
    if method is None or not method.args.args:
        return []
    this = method.args.args[0].arg
    assigned = {
        s.targets[0].id: s.value
        for s in method.body
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
    }
    found: list[tuple[str, ast.Attribute]] = []
    for statement in method.body:
        value = statement.value if isinstance(statement, ast.Return) else None
        if not isinstance(value, ast.Tuple) or len(value.elts) != 2:
            continue
        aux = value.elts[1]
        aux = assigned.get(aux.id, aux) if isinstance(aux, ast.Name) else aux
        for node in ast.walk(aux):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == this:
                found.append((node.attr, node))
    return found


def _stored_parameter(init: ast.FunctionDef, this: str, attr: str, params: list[str]) -> str | None:
    """The parameter of ``__init__`` stored unchanged as ``self.attr`` (``self.x = x``), when
    that is the only store of the attribute there."""
    stores = [
        s
        for s in init.body
        if isinstance(s, ast.Assign)
        and any(
            isinstance(t, ast.Attribute)
            and t.attr == attr
            and isinstance(t.value, ast.Name)
            and t.value.id == this
            for t in s.targets
        )
    ]
    if len(stores) != 1 or not isinstance(stores[0].value, ast.Name) or stores[0].value.id not in params:
        return None
    return stores[0].value.id


def _array_in_construction(
    ctx: Context, cls: ast.ClassDef, field: str, position: int, through_init: bool = False
) -> tuple[ast.AST | None, str]:
    """An array of several elements given for the field where this module builds the class (a
    dataclass-like class: its fields are its parameters, in order; ``through_init``: the
    parameter ``field`` of its own ``__init__``): ``Model(np.ones(10))``."""
    if not through_init and any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in cls.body):
        return None, ""  # its own `__init__` decides what goes where (`_array_in_field`)
    module = ctx.model.index.module
    # a base class of this module may have fields of its own before these: keywords only
    positional = not any(ctx.model.class_named(base, module) for base in cls.bases)
    calls = _constructions(ctx, cls)
    if len(calls) < 2 or not _reaches_traced_call(ctx, calls):
        return None, ""  # one object holds one array (compared with itself, it works), or none is traced
    for call in calls:
        given = keyword_argument(call, field)
        starred = any(isinstance(a, ast.Starred) for a in call.args[: position + 1])
        if given is None and positional and position < len(call.args) and not starred:
            given = call.args[position]
        if not isinstance(given, ast.Call):
            continue
        qualname = ctx.model.qualname(given.func, module) or ""
        if _several_elements(qualname, given):
            kind = "a NumPy array" if qualname.startswith("numpy.") else "a JAX array"
            return given, f"{kind} (`{snippet(ctx, call)}` at line {call.lineno})"
    return None, ""


def _reaches_traced_call(ctx: Context, constructions: list[ast.Call]) -> bool:
    """Whether an object built by one of ``constructions`` (directly, or through the name it is
    assigned to) is passed to a function JAX traces, called by its name."""
    model = ctx.model
    traced = {info.name for info in model.infos.values() if info.level > NONE}
    traced |= {
        name
        for name, value in model.module_summary.items()
        if any(getattr(r, "layers", ()) for r in refs(value))
    }
    built = set(map(id, constructions))
    holders = {
        target.id
        for node in ast.walk(model.tree)
        if isinstance(node, ast.Assign) and id(node.value) in built
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(model.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in traced:
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                if id(argument) in built or (isinstance(argument, ast.Name) and argument.id in holders):
                    return True
    return False


def _constructions(ctx: Context, cls: ast.ClassDef) -> list[ast.Call]:
    """The calls of ``cls`` by its name in this module."""
    found = ctx.memo.get(("JAX606 constructions", cls))
    if found is None:
        found = [
            node
            for node in ast.walk(ctx.model.tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == cls.name
        ]
        ctx.memo[("JAX606 constructions", cls)] = found
    return found


SHAPED = frozenset({"zeros", "ones", "empty", "full", "arange", "eye", "identity"})
LISTED = frozenset({"array", "asarray"})


def _several_elements(qualname: str, call: ast.Call) -> bool:
    """Whether the array ``call`` makes certainly holds more than one element: a literal shape
    (``jnp.zeros((3, 3))``, ``jax.random.uniform(key, (10,))``, ``np.arange(5)``) or a literal
    list of several items (``jnp.array([1.0, 2.0])``)."""
    module, _, name = qualname.rpartition(".")
    shape = keyword_argument(call, "shape")
    if module in ("jax.numpy", "numpy") and name in SHAPED:
        first = shape if shape is not None else (call.args[0] if call.args else None)
        return (
            len(call.args) <= 1 and _literal_size(first) > 1 if name == "arange" else _literal_size(first) > 1
        )
    if module == "jax.random":
        shape = shape if shape is not None else (call.args[1] if len(call.args) > 1 else None)
        return isinstance(shape, ast.Tuple) and _literal_size(shape) > 1
    if module in ("jax.numpy", "numpy") and name in LISTED and call.args:
        items = call.args[0]
        return isinstance(items, (ast.List, ast.Tuple)) and len(items.elts) > 1
    return False


def _literal_size(shape: ast.expr | None) -> int:
    """The number of elements a literal shape gives (0 where it is no literal)."""
    if isinstance(shape, ast.Constant) and type(shape.value) is int:
        return shape.value
    if isinstance(shape, ast.Tuple):
        size = 1
        for item in shape.elts:
            size *= _literal_size(item)
        return size
    return 0


def _unhashable_dataclass(ctx: Context, cls: ast.ClassDef) -> bool:
    """``@dataclasses.dataclass`` with ``eq`` and neither ``frozen`` nor ``unsafe_hash`` (nor a
    ``__hash__`` of its own): the decorator sets ``__hash__`` to None."""
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    for decorator in cls.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if ctx.model.qualname(call.func if call else decorator, scope) != "dataclasses.dataclass":
            continue
        options = {k.arg: k.value for k in call.keywords} if call else {}
        if any(not isinstance(v, ast.Constant) for v in options.values()):
            return False
        flags = {
            name: bool(value.value) for name, value in options.items() if isinstance(value, ast.Constant)
        }  # pyright: ignore[reportArgumentType]
        own_hash = any(
            isinstance(s, (ast.FunctionDef, ast.Assign)) and "__hash__" in _names_defined(s) for s in cls.body
        )
        return (
            flags.get("eq", True)
            and not flags.get("frozen")
            and not flags.get("unsafe_hash")
            and not own_hash
        )
    return False


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

"""Arrays in a treedef: a static field of an equinox module or a flax struct, or the auxiliary
data of a class's own ``tree_flatten``. JAX compares treedefs with ``==`` when it looks up a
compiled program, and two array objects of several elements make that raise ``ValueError``; the
helpers find where such an array goes in, from the class and from where the module builds it."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import NONE
from jaxlint.semantic.values import is_jax_array, refs

from ..support.explain import snippet

# `eqx.field(static=True)`, `flax.struct.field(pytree_node=False)`: a field kept in the treedef
STATIC_FIELDS = {"equinox.field": ("static", True), "flax.struct.field": ("pytree_node", False)}


def static_field_arrays(ctx: Context, cls: ast.ClassDef) -> list[tuple[str, ast.AST, str]]:
    """Each static field of ``cls`` that gets an array of several elements: the field, where the
    array goes in (a store on ``self``, or the field's declaration where the module builds the
    class with it), and what it is."""
    scope = ctx.model.index.scopes.get(cls)
    if scope is None:
        return []
    found: list[tuple[str, ast.AST, str]] = []
    fields = [s for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    for position, statement in enumerate(fields):
        if not _static_field(ctx, statement.value, scope):
            continue
        field = statement.target.id  # pyright: ignore[reportAttributeAccessIssue]
        where, kind = _array_in_field(ctx, cls, field, scope)
        if where is None:
            where, kind = _array_in_construction(ctx, cls, field, position)
            where = None if where is None else statement
        if where is not None:
            found.append((field, where, kind))
    return found


def aux_data_arrays(ctx: Context, cls: ast.ClassDef) -> list[tuple[str, ast.Attribute, str]]:
    """Each ``self.x`` that ``cls``'s own ``tree_flatten`` puts in the auxiliary data, where
    ``__init__`` stores its parameter ``x`` unchanged and the module builds the class with an
    array of several elements for it: the attribute, the read, and what the array is."""
    if cls not in ctx.model.pytree_fields.custom_classes:
        return []
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or len(init.args.args) < 2:
        return []
    params = [a.arg for a in init.args.args[1:]]
    found: list[tuple[str, ast.Attribute, str]] = []
    for attr, where in _aux_attributes(cls):
        stores = [s for s in ctx.model.self_stores(cls).get(attr, []) if s.method is init]
        value = stores[0].value if len(stores) == 1 else None
        if not isinstance(value, ast.Name) or value.id not in params:
            continue  # not a parameter stored unchanged
        given, kind = _array_in_construction(ctx, cls, value.id, params.index(value.id), through_init=True)
        if given is not None:
            found.append((attr, where, kind))
    return found


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
    if len(calls) < 2 or not _reaches_traced_call(ctx, cls, calls):
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


def _reaches_traced_call(ctx: Context, cls: ast.ClassDef, constructions: list[ast.Call]) -> bool:
    """Whether an object built by one of ``constructions`` of ``cls`` (directly, or through the
    name it is assigned to) is passed to a function JAX traces, called by its name."""
    key = ("JAX606 reaches", cls)
    if key not in ctx.memo:
        ctx.memo[key] = _reaches(ctx, constructions)
    return ctx.memo[key]


def _reaches(ctx: Context, constructions: list[ast.Call]) -> bool:
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

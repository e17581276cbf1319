"""JAX665: a static argument whose class's ``==`` ignores an attribute the jitted function reads."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.values import instance_classes

from ..support.classes import dataclass_options, self_static_at
from ..support.jitted import declares_static, jitted_callee


class StaticArgumentEqualityIgnoresField(Rule):
    """## What it does
    Finds a jitted function that reads `cfg.weight` where `cfg` is a static argument (or `self`,
    static in a method jitted with `static_argnums=0`) whose class's equality leaves `weight`
    out: a hand-written `__eq__` that compares other attributes only, or a dataclass field
    declared `field(compare=False)`. The class is one of this module, `weight` is set per
    instance (in `__init__`, or a dataclass field), and every attribute `__eq__` compares is a
    plain instance attribute, so what it leaves out is certain.

    ## Why is this bad?
    JAX finds the compiled program of a call by comparing its static arguments with `==`. Two
    configurations that differ only in `weight` are equal, so the second call runs the program
    traced with the first one's `weight`, silently (measured with JAX 0.10.2: a weight of 3.0
    gave the result of 1.0). A `__hash__` that does include `weight` does not prevent it.

    ## Example
    ```python
    from functools import partial

    import jax

    class LossConfig:
        def __init__(self, name, weight):
            self.name = name
            self.weight = weight

        def __hash__(self):
            return hash(self.name)

        def __eq__(self, other):
            return self.name == other.name

    @partial(jax.jit, static_argnames=("cfg",))
    def loss(x, cfg):
        return cfg.weight * x

    loss(1.0, cfg=LossConfig("l2", 3.0))
    ```

    ## Use instead
    ```python
    class LossConfig:
        ...

        def __hash__(self):
            return hash((self.name, self.weight))

        def __eq__(self, other):
            return (self.name, self.weight) == (other.name, other.weight)
    ```

    ## Fix safety
    No fix: which attributes make two configurations the same is the author's decision.

    ## References
    - [jax.jit: static_argnums](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)
    - [Python data model: `__hash__`](https://docs.python.org/3/reference/datamodel.html#object.__hash__)
    """

    code = "JAX665"
    name = "static-argument-equality-ignores-field"
    message = "A static argument's class compares without an attribute the jitted function reads"
    outcome = "silent: a call differing only in that attribute reuses the first compiled program"
    mentioned = frozenset({"__eq__", "compare"})
    visits_anywhere = frozenset({ast.Call, ast.ClassDef})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not declares_static(ctx):
            return
        callee = jitted_callee(ctx, node)
        if callee is None:
            return
        for parameter, argument in callee.static_arguments(node):
            classes = instance_classes(ctx.value(argument))
            if not classes and isinstance(argument, ast.Call):
                found = ctx.model.class_named(argument.func, ctx.scope)
                classes = [found] if found is not None else []
            if len(classes) == 1:
                self.check(ctx, callee.info, parameter, classes[0])

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        for statement in node.body:
            info = ctx.model.info(statement)
            if info is None or not info.is_method or not info.positional_names():
                continue
            if any(self_static_at(info, site) for site in info.jit_sites):
                self.check(ctx, info, info.positional_names()[0], node)

    def check(self, ctx: Context, function: FunctionInfo, parameter: str, cls: ast.ClassDef) -> None:
        ignored = ignored_attributes(ctx, cls)
        if not ignored:
            return
        for read in _attribute_reads(ctx, function, parameter):
            reason = ignored.get(read.attr)
            if reason is None or not ctx.first_time((self.code, read)):
                continue
            ctx.report(
                read,
                f"`{parameter}.{read.attr}` is read in jitted `{function.name}`, where `{parameter}` is "
                f"static, but `{cls.name}`'s {reason}: JAX finds the compiled program of a call by "
                f"comparing static arguments with `==`, so a call whose `{parameter}` differs only in "
                f"`{read.attr}` silently reuses the program traced with the first one's; compare "
                f"`{read.attr}` in `__eq__` (and hash it)",
            )


def ignored_attributes(ctx: Context, cls: ast.ClassDef) -> dict[str, str]:
    """The per-instance attributes of ``cls`` its ``==`` certainly ignores, each with why."""
    methods = {s.name: s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    equality = methods.get("__eq__")
    if isinstance(equality, ast.FunctionDef):
        if "__hash__" not in methods:
            return {}  # Python sets `__hash__` to None: unhashable, another error (JAX606)
        compared = _compared_attributes(ctx, equality)
        instance = _instance_attributes(methods.get("__init__"))
        if compared is None or not compared <= instance.keys() or compared & methods.keys():
            return {}
        line = equality.lineno
        return {
            name: f"`__eq__` (line {line}) does not compare it" for name in instance if name not in compared
        }
    return _uncompared_fields(ctx, cls) if equality is None else {}


def _compared_attributes(ctx: Context, equality: ast.FunctionDef) -> frozenset[str] | None:
    """The attributes of ``self`` an ``__eq__`` reads, when it reads ``self`` only that way
    (never passed whole, called, or read through ``vars``/``__dict__``); None otherwise."""
    positional = [a.arg for a in equality.args.args]
    if len(positional) != 2 or equality.args.vararg or equality.args.kwarg:
        return None
    own = positional[0]
    parents = ctx.model.parent_map
    compared: set[str] = set()
    for node in own_nodes(equality.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None
        if not (isinstance(node, ast.Name) and node.id == own):
            continue
        holder = parents.get(node)
        if not isinstance(holder, ast.Attribute) or holder.attr.startswith("__"):
            return None
        if isinstance(parents.get(holder), ast.Call) and parents[holder].func is holder:  # pyright: ignore[reportAttributeAccessIssue]
            return None
        compared.add(holder.attr)
    return frozenset(compared)


def _instance_attributes(init: ast.AST | None) -> dict[str, ast.Attribute]:
    """The attributes ``__init__`` sets on ``self`` to something other than a constant (so
    they can differ between instances)."""
    if not isinstance(init, ast.FunctionDef) or not init.args.args:
        return {}
    own = init.args.args[0].arg
    found: dict[str, ast.Attribute] = {}
    for node in own_nodes(init.body):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        value = getattr(node, "value", None)
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == own
                and value is not None
                and not isinstance(value, ast.Constant)
            ):
                found.setdefault(target.attr, target)
    return found


def _uncompared_fields(ctx: Context, cls: ast.ClassDef) -> dict[str, str]:
    """The fields of a hashable ``@dataclass`` (frozen or ``unsafe_hash``, ``eq`` left on)
    declared ``field(compare=False)``."""
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    flags = dataclass_options(ctx, cls)
    if flags is None or not flags.get("eq", True) or not (flags.get("frozen") or flags.get("unsafe_hash")):
        return {}
    found: dict[str, str] = {}
    for statement in cls.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        value = statement.value
        if not isinstance(value, ast.Call) or ctx.model.qualname(value.func, scope) != "dataclasses.field":
            continue
        compare = next((k.value for k in value.keywords if k.arg == "compare"), None)
        if isinstance(compare, ast.Constant) and compare.value is False:
            found[statement.target.id] = (
                f"field `{statement.target.id}` is declared `compare=False` (line {statement.lineno})"
            )
    return found


def _attribute_reads(ctx: Context, function: FunctionInfo, parameter: str) -> list[ast.Attribute]:
    """``parameter.attr`` read in ``function``'s own body, where the name is only the parameter."""
    scope = function.scope
    if scope.bound.get(parameter) != 1 or parameter in scope.globals:
        return []
    parents = ctx.model.parent_map
    reads: list[ast.Attribute] = []
    body = getattr(function.node, "body", [])
    for node in own_nodes(body if isinstance(body, list) else [body]):
        if isinstance(node, ast.Name) and node.id == parameter and isinstance(node.ctx, ast.Load):
            holder = parents.get(node)
            if isinstance(holder, ast.Attribute) and isinstance(holder.ctx, ast.Load):
                called = parents.get(holder)
                if not (isinstance(called, ast.Call) and called.func is holder):
                    reads.append(holder)
    return reads

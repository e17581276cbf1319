"""JAX651: a field of a flax or equinox module (a dataclass) declared so the class cannot take it."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

# classes whose subclasses are dataclasses (their fields are the annotated class attributes)
DATACLASS_BASES = frozenset({"flax.linen.Module", "equinox.Module", "flax.struct.PyTreeNode"})
DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass"})
MUTABLE_CALLS = frozenset({"builtins.list", "builtins.dict", "builtins.set"})
DEPTH = 4  # local base classes followed


class ModuleFieldMisdeclared(Rule):
    """## What it does
    Finds a field of a class that is a dataclass (a flax linen `nn.Module`, an `eqx.Module`, a
    `flax.struct.PyTreeNode`, a `@dataclasses.dataclass`) declared in a way the dataclass
    rejects: a mutable default (`hidden_sizes: list = [16, 16]`), or a class attribute without
    an annotation (`features = 16`) that a constructor call of this module passes by keyword.

    ## Why is this bad?
    These classes generate `__init__` from their annotated class attributes. A list, dict or set
    default raises `ValueError` ("mutable default ... is not allowed: use default_factory") when
    the class is defined; an attribute without an annotation is no field at all, so
    `MLPBlock(features=32)` raises `TypeError` (unexpected keyword argument). Measured with flax
    0.12.8 and equinox 0.13.8 for each kind of class.

    ## Example
    ```python
    import flax.linen as nn

    class MLP(nn.Module):
        hidden_sizes: list = [16, 16]
    ```

    ## Use instead
    ```python
    import flax.linen as nn

    class MLP(nn.Module):
        hidden_sizes: tuple = (16, 16)
    ```

    ## Fix safety
    No automatic fix: a tuple, or `dataclasses.field(default_factory=...)`, is the author's call.

    ## References
    - [Python: dataclasses, mutable default values](https://docs.python.org/3/library/dataclasses.html#mutable-default-values)
    - [Flax: module attributes](https://flax.readthedocs.io/en/latest/guides/flax_fundamentals/flax_basics.html)
    """

    code = "JAX651"
    mentioned = frozenset({"flax", "equinox", "dataclass"})
    name = "module-field-misdeclared"
    message = "A field of a flax/equinox module (a dataclass) is declared so the class rejects it"
    outcome = "ValueError when the class is defined, or TypeError at the constructor call"

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        if not _dataclass_like(ctx, node, 0):
            return
        for statement in node.body:
            if not isinstance(statement, ast.AnnAssign) or statement.value is None:
                continue
            if "ClassVar" in ast.unparse(statement.annotation):
                continue
            if _mutable(ctx, statement.value):
                ctx.report(
                    statement.value,
                    f"the field `{snippet(ctx, statement.target)}` of `{node.name}` defaults to "
                    f"`{snippet(ctx, statement.value)}`, a mutable value: the dataclass raises "
                    f"`ValueError` when the class is defined; use a tuple, or "
                    f"`dataclasses.field(default_factory=...)`",
                )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not node.keywords:
            return
        cls = ctx.model.class_named(node.func, ctx.scope)
        if cls is None or not _dataclass_like(ctx, cls, 0) or _defines_init(ctx, cls, 0):
            return
        fields = _annotated(ctx, cls, 0)
        attributes = _unannotated(ctx, cls, 0)
        for keyword in node.keywords:
            if keyword.arg in attributes and keyword.arg not in fields:
                ctx.report(
                    keyword,
                    f"`{keyword.arg}` is a class attribute of `{cls.name}` without an annotation (line "
                    f"{attributes[keyword.arg]}), not a field: the dataclass `__init__` does not take it, "
                    f"so this call raises `TypeError`; annotate it (`{keyword.arg}: int = ...`)",
                )
                return


def _dataclass_like(ctx: Context, cls: ast.ClassDef, depth: int) -> bool:
    """A class whose fields a dataclass makes: decorated as one, or derived from such a base."""
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    if any(ctx.model.qualname(_decorated(d), scope) in DATACLASS_DECORATORS for d in cls.decorator_list):
        return True
    for base in cls.bases:
        if ctx.model.qualname(base, scope) in DATACLASS_BASES:
            return True
        local = ctx.model.class_named(base, scope)
        if local is not None and depth < DEPTH and _dataclass_like(ctx, local, depth + 1):
            return True
    return False


def _decorated(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _mutable(ctx: Context, value: ast.expr) -> bool:
    """A list, dict or set display (or comprehension), or ``list()``/``dict()``/``set()``."""
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    return isinstance(value, ast.Call) and ctx.qualname(value.func) in MUTABLE_CALLS


def _annotated(ctx: Context, cls: ast.ClassDef, depth: int) -> set[str]:
    """The fields of ``cls`` and of its local bases: annotated class attributes."""
    names = {s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    for base in cls.bases:
        local = ctx.model.class_named(base, scope)
        if local is not None and depth < DEPTH:
            names |= _annotated(ctx, local, depth + 1)
    return names


def _unannotated(ctx: Context, cls: ast.ClassDef, depth: int) -> dict[str, int]:
    """Plain class attributes ``name = value`` of the class body and of its local bases, with
    their lines."""
    found: dict[str, int] = {}
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    for base in cls.bases:
        local = ctx.model.class_named(base, scope)
        if local is not None and depth < DEPTH:
            found.update(_unannotated(ctx, local, depth + 1))
    for statement in cls.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = statement.lineno
    return found


def _defines_init(ctx: Context, cls: ast.ClassDef, depth: int) -> bool:
    """Whether ``cls`` or a local base writes its own ``__init__`` (which may take anything)."""
    if any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in cls.body):
        return True
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    for base in cls.bases:
        local = ctx.model.class_named(base, scope)
        if local is not None and depth < DEPTH and _defines_init(ctx, local, depth + 1):
            return True
    return False

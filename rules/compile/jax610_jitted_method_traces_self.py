"""JAX610: ``@jax.jit`` (or ``pmap``, ``vmap``, ``grad``, ``checkpoint``...) on a method of a plain
class: ``self`` is an array argument, and not a JAX type."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.classes import plain_class
from ..support.explain import snippet
from ..support.jitted import static_parameters


class JittedMethodTracesSelf(Rule):
    """## What it does
    Finds `@jax.jit` (or `@partial(jax.jit, ...)` without `self` among its static arguments,
    `jax.jit(Cls.method)`, or `draw = jax.jit(_draw)` in the class body)
    on a method of a plain class of this module: one that is not a pytree (not registered,
    not a NamedTuple, a registered dataclass, a flax struct or an equinox `Module`), has no base
    other than such plain classes of this module, and no class decorator but a plain
    `@dataclasses.dataclass`. Likewise the other transformations that take every positional
    argument as an array unless told otherwise: `jax.pmap` (unless `static_broadcasted_argnums`),
    `jax.vmap` (unless `in_axes` leaves `self` unmapped), `jax.grad`, `value_and_grad`, `jacrev`,
    `jacfwd` and `hessian` (unless `argnums` leaves out 0), and `jax.checkpoint` (unless
    `static_argnums`).

    ## Why is this bad?
    `jax.jit` wraps the function defined in the class body, so `obj.method(x)` calls it with
    `self` as its first argument, and jit traces every argument that is not static. An
    instance of a plain class is not a JAX type: the first call raises `TypeError` ("Error
    interpreting argument to ... as an abstract array").

    ## Example
    ```python
    import jax

    class Scaler:
        def __init__(self, factor):
            self.factor = factor

        @jax.jit
        def scale(self, x):
            return x * self.factor
    ```

    ## Use instead
    ```python
    import jax

    class Scaler:
        def __init__(self, factor):
            self.factor = factor

        def scale(self, x):
            return _scale(x, self.factor)

    @jax.jit
    def _scale(x, factor):
        return x * factor
    ```
    Or register the class as a pytree, or mark `self` static (`static_argnums=0`): then the
    object must be hashable, and its attributes are frozen into each compiled version (a
    change to them is not seen unless its hash changes).

    ## Fix safety
    No fix: which remedy fits (a function of the arrays, a pytree registration, a static
    `self` whose attributes never change) depends on how the object is used.

    ## References
    - [JAX FAQ: how to use jit with methods](https://docs.jax.dev/en/latest/faq.html#how-to-use-jit-with-methods)
    """

    code = "JAX610"
    name = "jitted-method-traces-self"
    message = "`jax.jit` on a method traces `self`, which is not a JAX type"
    outcome = "TypeError on the first call: the instance is not a valid JAX type"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        info = ctx.model.infos.get(node)
        if info is None or not info.is_method or not info.positional_names():
            return
        cls = ctx.model.index.parents[node].node
        if not isinstance(cls, ast.ClassDef) or _not_plain_method(node) or _converts_itself(cls):
            return
        this = info.positional_names()[0]
        # `@jax.jit`, or `jax.jit(Trainer.update)` / `draw = jax.jit(_draw)` in the class body:
        # the plain function, which takes the object as its first argument
        site = next((d for d in node.decorator_list if d in info.jit_sites), None) or next(
            (s for s in info.jit_sites if _jits_unbound(s, node, cls)), None
        )
        if site is not None:
            static = static_parameters(info, site)
            if static is None or this in static or not plain_class(ctx, cls):
                return
            ctx.report(
                site,
                f"`jax.jit` on `{cls.name}.{node.name}` traces `{this}` as an argument, but an instance of "
                f"`{cls.name}` is not a JAX type: calling it raises `TypeError`; jit a function of the arrays "
                f"instead (called from the method), register `{cls.name}` as a pytree, or mark `{this}` static "
                f"(`static_argnums=0`: its attributes are then frozen into the compiled function)",
            )
            return
        if this != "self":
            return  # a function kept in a class as in a namespace (`Ops.dot(x, y)`): no instance
        for decorator in node.decorator_list:
            found = _array_transform(ctx, decorator)
            if found is not None and plain_class(ctx, cls):
                transform, remedy = found
                ctx.report(
                    decorator,
                    f"`{transform}` on `{cls.name}.{node.name}` takes `{this}` as an array argument, but an "
                    f"instance of `{cls.name}` is not a JAX type: calling it raises `TypeError`; {remedy}, or "
                    f"apply `{transform}` to a function of the arrays (called from the method)",
                )
                return


def _jits_unbound(site: ast.expr, method: ast.FunctionDef, cls: ast.ClassDef) -> bool:
    """``jax.jit(Cls.method)``, or ``jax.jit(method)`` written in the class body: the function
    itself, not bound to an object."""
    if not isinstance(site, ast.Call) or not site.args:
        return False
    target = site.args[0]
    if isinstance(target, ast.Attribute):
        return (
            target.attr == method.name and isinstance(target.value, ast.Name) and target.value.id == cls.name
        )
    return (
        isinstance(target, ast.Name)
        and target.id == method.name
        and any(site in ast.walk(stmt) for stmt in cls.body if not isinstance(stmt, ast.FunctionDef))
    )


# transforms that take every positional argument as an array unless told otherwise, and how
# to tell them (measured with JAX 0.10.2: each raises TypeError on a plain `self`, none when told)
DIFFERENTIATING = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacrev", "jax.jacfwd", "jax.hessian"})


def _array_transform(ctx: Context, decorator: ast.expr) -> tuple[str, str] | None:
    """The transformation a decorator applies (directly or through ``functools.partial``) and
    the remedy, when it takes the first positional argument as an array."""
    callee, keywords = decorator, {}
    if isinstance(decorator, ast.Call):
        if ctx.qualname(decorator.func) != "functools.partial" or len(decorator.args) != 1:
            return None
        callee = decorator.args[0]
        keywords = {k.arg: k.value for k in decorator.keywords}
        if None in keywords:
            return None
    qualname = ctx.qualname(callee)
    short = snippet(ctx, callee)
    if qualname in DIFFERENTIATING:
        argnums = keywords.get("argnums")
        if argnums is not None and not _holds_zero(argnums):
            return None
        return short, "differentiate with respect to the arrays (`argnums=1`)"
    if qualname == "jax.vmap":
        axes = keywords.get("in_axes")
        if axes is not None and not _first_axis_mapped(axes):
            return None
        return short, "pass `in_axes=(None, ...)` so it is not mapped"
    if qualname == "jax.pmap":  # `in_axes=None` still broadcasts it as an array (measured)
        if "static_broadcasted_argnums" in keywords:
            return None
        return short, "mark it static (`static_broadcasted_argnums=0`)"
    if qualname in ("jax.checkpoint", "jax.remat"):
        if "static_argnums" in keywords:
            return None
        return short, "mark it static (`static_argnums=0`)"
    return None


def _holds_zero(expr: ast.expr) -> bool:
    """Whether a literal ``argnums`` includes 0 (unknown values: assumed not)."""
    try:
        value = ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    items = value if isinstance(value, (tuple, list)) else [value]
    return any(type(item) is int and item == 0 for item in items)


def _first_axis_mapped(axes: ast.expr) -> bool:
    """Whether a literal ``in_axes`` maps the first argument (``0``, ``(0, ...)``)."""
    try:
        value = ast.literal_eval(axes)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    first = value[0] if isinstance(value, (tuple, list)) and value else value
    return type(first) is int


def _converts_itself(cls: ast.ClassDef) -> bool:
    """A class with ``__jax_array__``: JAX raises another error for it (``ValueError``)."""
    return any(isinstance(s, ast.FunctionDef) and s.name == "__jax_array__" for s in cls.body)


def _not_plain_method(node: ast.FunctionDef) -> bool:
    return any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in node.decorator_list
    )

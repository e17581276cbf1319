"""JAX603: a Python list or tuple passed where a ``jax.numpy`` function requires an array."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.values import (
    Value,
    instance_classes,
    is_container,
    is_jax_array,
    is_mapping,
    known_elements,
    record_kind,
)

from ..support.explain import snippet
from .numpy_api import JNP_REJECTS_SEQUENCE, JNP_REJECTS_SEQUENCE_KEYWORDS

DISPLAYS = (ast.List, ast.Tuple, ast.ListComp)
JNP_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in JNP_REJECTS_SEQUENCE)
SEQUENCE_BUILTINS = frozenset({"builtins.list", "builtins.tuple"})


@dataclass(frozen=True)
class WrapInArray(FixRequest):
    """Wrap each of ``arguments`` (Python lists or tuples) in ``jnp.array(...)``."""

    arguments: tuple[ast.expr, ...]


class SequencePassedAsArray(Rule):
    """## What it does
    Finds a Python list or tuple (a literal, a list comprehension, `list(...)`/`tuple(...)`, or a
    name bound once to one of those) passed as an array argument of a `jax.numpy` function that
    only accepts arrays and scalars: `jnp.sum([a, b])`, `jnp.exp((x, y))`, `jnp.maximum(x, [0, 1])`.

    Functions that take sequences by design are not reported: `jnp.array`, `jnp.asarray`,
    `jnp.stack`, `jnp.concatenate`, `jnp.vstack`/`hstack`, `jnp.block`, shapes
    (`jnp.zeros([2, 3])`, `jnp.reshape(x, [2, -1])`), axes and pad widths.

    ## Why is this bad?
    Unlike NumPy, `jax.numpy` does not convert lists and tuples implicitly (converting each element
    would be slow under tracing and hides what is an array): it raises `TypeError: sum requires
    ndarray or scalar arguments, got <class 'list'> at position 0.`, traced or not. Build the array
    explicitly with `jnp.array([...])` (or `jnp.stack` for a list of arrays).

    ## Example
    ```python
    import jax.numpy as jnp

    def total_loss(a, b, c):
        return jnp.sum([a, b, c])
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def total_loss(a, b, c):
        return jnp.sum(jnp.array([a, b, c]))
    ```

    ## Fix safety
    The fix wraps the sequence in `jnp.array(...)`, which is what NumPy does implicitly. It is
    safe: the call raised `TypeError` before.

    ## References
    - [JAX sharp bits: non-array inputs](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#non-array-inputs-numpy-vs-jax)
    """

    code = "JAX603"
    name = "sequence-passed-as-array"
    message = "A Python list or tuple is passed where `jax.numpy` requires an array"
    outcome = "TypeError: ... requires ndarray or scalar arguments, got <class 'list'>"
    fix_title = "Wrap the sequence in `jnp.array(...)`"
    fix_availability = FixAvailability.ALWAYS

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in JNP_LEAVES or not node.args:
            return
        qualname = ctx.qualname(node.func)
        positions = JNP_REJECTS_SEQUENCE.get(qualname or "")
        if positions is None:
            return
        found: list[tuple[ast.expr, str]] = []
        for position, argument in enumerate(node.args):
            if isinstance(argument, ast.Starred):
                break
            kind = _sequence_kind(ctx, argument) if position in positions else None
            if kind is not None:
                found.append((argument, kind))
        keywords = JNP_REJECTS_SEQUENCE_KEYWORDS.get(qualname or "", frozenset())
        for keyword in node.keywords:  # `jnp.sum(x, where=[True, False])`
            kind = _sequence_kind(ctx, keyword.value) if keyword.arg in keywords else None
            if kind is not None:
                found.append((keyword.value, kind))
        if not found:
            return
        argument, kind = found[0]
        function = "jnp." + qualname.removeprefix("jax.numpy.")  # pyright: ignore[reportOptionalMemberAccess]
        ctx.report(
            node,
            f"`{function}` does not accept {kind}: `{snippet(ctx, argument)}` raises `TypeError` "
            f"(jax.numpy requires arrays, unlike NumPy); wrap it in `jnp.array(...)` "
            f"(or `jnp.stack` for a list of arrays)",
            fix=WrapInArray(tuple(a for a, _ in found)),
        )


def _sequence_kind(ctx: Context, node: ast.expr) -> str | None:
    """``"a Python list"``/``"a Python tuple"`` when ``node`` certainly evaluates to one."""
    if isinstance(node, ast.Name):
        owner = ctx.scope.lookup(node.id)
        if owner is None or owner.bound.get(node.id) != 1:
            return None
        if node.id in owner.params and _passed_sequence(ctx.value(node)):
            return "a Python list or tuple (what eager code passes for it)"
        value = owner.assigned.get(node.id)
        return None if value is None or isinstance(value, ast.Name) else _sequence_kind(ctx, value)
    if isinstance(node, (ast.List, ast.ListComp)):
        return "a Python list"
    if isinstance(node, ast.Tuple):
        return "a Python tuple"
    if isinstance(node, ast.Call) and not node.keywords:
        qualname = ctx.qualname(node.func)
        if qualname in SEQUENCE_BUILTINS:
            return f"a Python {qualname.removeprefix('builtins.')}"
    return None


def _passed_sequence(value: Value) -> bool:
    """A list or tuple of known length that is no array, record or dict: a parameter that eager
    code hands a list display (``total([1.0, 2.0])``), which the function receives as it is."""
    return (
        is_container(value)
        and not is_jax_array(value)
        and known_elements(value) is not None
        and record_kind(value) is None
        and not is_mapping(value)
        and not instance_classes(value)
    )

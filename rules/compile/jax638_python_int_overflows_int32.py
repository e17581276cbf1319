"""JAX638: a Python int outside the int32 range meets a JAX array, with 64-bit types off."""

from __future__ import annotations

import ast
import itertools
import re

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import is_container, is_jax_array, is_traced

from ..support.dtypes import INT32_RANGE, mentions_x64, python_int_value
from ..support.explain import snippet

# `jax.numpy` functions that take a Python int as an array operand (measured with JAX 0.10.2:
# each raises `OverflowError` on `2**32` with x64 off; `jnp.full` wraps it silently instead)
OPERAND_FUNCTIONS = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "array",
        "asarray",
        "where",
        "add",
        "subtract",
        "multiply",
        "maximum",
        "minimum",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "remainder",
        "mod",
        "floor_divide",
        "equal",
        "less",
        "greater",
    )
)
ARRAY_MAKERS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
AT_METHODS = frozenset({"set", "add", "multiply", "mul", "min", "max", "subtract"})


class PythonIntOverflowsInt32(Rule):
    """## What it does
    Finds a Python int that does not fit in int32 (`2654435761`, `0xFFFFFFFF`, `2**32`) used as
    an operand of a JAX array: in an arithmetic, bitwise or comparison operator, an `.at[]`
    update, or a `jax.numpy` function (`jnp.where`, `jnp.array`), in a module that never
    mentions x64.

    ## Why is this bad?
    With 64-bit types off (JAX's default), JAX converts a Python int to a weakly typed int32
    before the operation, whatever the array's dtype (float32 and uint32 too), and raises
    `OverflowError` ("An overflow was encountered while parsing an argument to a jitted
    computation"), in eager code and under `jit` alike. Hashing constants and bit masks
    ported from NumPy hit it.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def bucket(ids):
        return (ids * 2654435761) % 1024

    bucket(jnp.arange(4))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def bucket(ids):
        return (ids.astype(jnp.uint32) * jnp.uint32(2654435761)) % 1024

    bucket(jnp.arange(4))
    ```

    ## Fix safety
    No automatic fix: whether to compute in `uint32` (wrapping on overflow) or to enable x64 is
    the author's.

    ## References
    - [JAX: Sharp bits, double (64-bit) precision](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#double-64bit-precision)
    - [JAX: Type promotion semantics](https://docs.jax.dev/en/latest/type_promotion.html)
    """

    code = "JAX638"
    name = "python-int-overflows-int32"
    message = "A Python int outside the int32 range meets a JAX array while 64-bit types are off"
    outcome = "OverflowError"

    def applies(self, context: Context) -> bool:
        """Only a module whose text may write an int outside int32 (a cheap look at its lines)."""
        text = context.text
        written = any(pattern.search(text) for pattern in BIG_INT_TEXT)
        return written and not mentions_x64(context)

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        if not isinstance(node.op, ast.Pow):  # `x ** 2**31` works (measured)
            self.check_pair(node, node.left, node.right, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        if not isinstance(node.op, ast.Pow):
            self.check_pair(node, node.target, node.value, ctx)

    def visit_Compare(self, node: ast.Compare, ctx: Context) -> None:
        operands = [node.left, *node.comparators]
        for left, right in itertools.pairwise(operands):
            if self.check_pair(node, left, right, ctx):
                return

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        big = next((arg for arg in node.args if _out_of_int32(arg, ctx)), None)
        if big is None and node.args and ctx.qualname(node.func) in ARRAY_MAKERS:
            big = _out_of_int32_element(node.args[0], ctx)
        if big is None or any(k.arg == "dtype" for k in node.keywords):
            return
        func = node.func
        at_update = (
            isinstance(func, ast.Attribute) and func.attr in AT_METHODS and _at_of_array(func.value, ctx)
        )
        if at_update or ctx.qualname(func) in OPERAND_FUNCTIONS:
            self.report(node, big, ctx)

    def check_pair(self, node: ast.AST, left: ast.expr, right: ast.expr, ctx: Context) -> bool:
        for big, other in ((left, right), (right, left)):
            if _out_of_int32(big, ctx) and _jax_array(ctx, other):
                self.report(node, big, ctx)
                return True
        return False

    def report(self, node: ast.AST, big: ast.expr, ctx: Context) -> None:
        if mentions_x64(ctx):
            return
        value = _int_value(big, ctx)
        advice = (
            f"compute in `uint32` (`x.astype(jnp.uint32)` with `jnp.uint32({snippet(ctx, big)})`), "
            if value is not None and 0 <= value < 2**32
            else ""
        )
        ctx.report(
            node,
            f"`{snippet(ctx, node)}`: the Python int `{snippet(ctx, big)}` does not fit in int32, and "
            f"with 64-bit types off (JAX's default) JAX converts it to int32 before it meets the "
            f"array and raises `OverflowError`; {advice}{'or ' if advice else ''}enable x64 "
            f'(`jax.config.update("jax_enable_x64", True)`)',
        )


# what writes an int outside int32: ten digits, eight hex digits, a power or shift by two
# digits (simple patterns, each anchored on a character: a quick look at the whole text)
BIG_INT_TEXT = (
    re.compile(r"[0-9][0-9_]{9}"),
    re.compile(r"0[xX][0-9a-fA-F_]{8}"),
    re.compile(r"(?:\*\*|<<)\s*\(?[0-9][0-9]"),
)


def _out_of_int32(expr: ast.expr, ctx: Context) -> bool:
    value = _int_value(expr, ctx)
    return value is not None and value not in INT32_RANGE


def _out_of_int32_element(data: ast.expr, ctx: Context) -> ast.expr | None:
    """An element of a list or tuple display (or a name bound once to one) of Python ints that
    does not fit in int32: ``jnp.array([1_700_000_000_123, ...])``."""
    if isinstance(data, ast.Name):
        data = ctx.scope.written_value(data)
    if not isinstance(data, (ast.List, ast.Tuple)):
        return None
    return next((element for element in data.elts if _out_of_int32(element, ctx)), None)


def _int_value(expr: ast.expr, ctx: Context) -> int | None:
    """The Python int ``expr`` makes: written out, or a name bound once to one (``MASK``)."""
    if isinstance(expr, ast.Name):
        expr = ctx.scope.written_value(expr)
    return python_int_value(expr)


def _jax_array(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` holds a JAX array: known to, or a tracer that is not a container."""
    value = ctx.value(expr)
    return is_jax_array(value) or (is_traced(value) and not is_container(value))


def _at_of_array(expr: ast.expr, ctx: Context) -> bool:
    """``x.at[i]`` on a JAX array ``x``."""
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "at"
        and _jax_array(ctx, expr.value.value)
    )

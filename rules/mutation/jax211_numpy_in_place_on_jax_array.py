"""JAX211: a NumPy function that writes into its argument, given a JAX array."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.measured import numpy_only_attributes, numpy_only_methods
from jaxlint.semantic.values import is_jax_array, is_traced, is_traced_leaf

from ..support.arrays import passed_array
from ..support.explain import snippet

# NumPy functions that write into their first argument (measured with JAX 0.10.2 and NumPy:
# each raises on a JAX array, `TypeError` mostly, `NotImplementedError` for `fill_diagonal`)
WRITERS = frozenset(
    f"numpy.{name}"
    for name in ("copyto", "put", "put_along_axis", "place", "putmask", "fill_diagonal", "random.shuffle")
) | {"random.shuffle"}  # (Python's own shuffle swaps items in place: `TypeError` too)
WRITER_NAMES = frozenset(
    {"copyto", "put", "put_along_axis", "place", "putmask", "fill_diagonal", "shuffle", "at"}
)
# NumPy functions that write into their first argument when given `copy=False`
COPY_FALSE_WRITERS = frozenset({"numpy.nan_to_num"})
# a NumPy random generator's methods that shuffle their argument in place, and its makers
GENERATOR_WRITERS = frozenset({"shuffle"})
NUMPY_GENERATORS = frozenset(
    {"numpy.random.default_rng", "numpy.random.Generator", "numpy.random.RandomState"}
)
# the ufunc methods that update their first argument in place (`np.add.at(a, idx, 1)`)
UFUNC_METHODS = frozenset({"at"})


class NumpyInPlaceOnJaxArray(Rule):
    """## What it does
    Finds a NumPy function that writes into its first argument (`np.add.at`, any ufunc's
    `.at`, `np.copyto`, `np.put`, `np.put_along_axis`, `np.place`, `np.putmask`, `np.fill_diagonal`,
    `np.random.shuffle`, a NumPy generator's `shuffle`, a ufunc's `out=`,
    `np.nan_to_num(x, copy=False)`; Python's `random.shuffle`) given a JAX array; a
    `jax.numpy` function given an `out=` array (`jnp.add(a, b, out=a)`); and a NumPy array
    method that JAX arrays lack
    (`x.fill(0.0)`, `x.resize(...)`, `x.put(...)`: which ones is measured by
    `tools/measure_jax_api.py`) called on a JAX array.

    ## Why is this bad?
    JAX arrays are immutable and are not NumPy arrays: NumPy cannot write into them and
    raises (`TypeError: first operand must be array`, `copyto() argument 1 must be a
    numpy.ndarray`; `fill_diagonal`: `NotImplementedError`). `jax.numpy` accepts only
    `out=None` (`NotImplementedError: out argument of <jnp.ufunc 'add'>`), and a JAX array has
    no `fill` or `resize` (`AttributeError`), traced or not. Use the functional update,
    `counts = counts.at[labels].add(1)`, assign the result, or work on a NumPy copy
    (`np.array(x)`).

    ## Example
    ```python
    import jax.numpy as jnp
    import numpy as np

    labels = jnp.array([0, 2, 2, 1])
    counts = jnp.zeros(3, jnp.int32)
    np.add.at(counts, labels, 1)
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    labels = jnp.array([0, 2, 2, 1])
    counts = jnp.zeros(3, jnp.int32)
    counts = counts.at[labels].add(1)
    ```

    ## Fix safety
    No automatic fix: the functional form rebinds a name the code may share.

    ## References
    - [JAX: in-place updates](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates)
    """

    code = "JAX211"
    mentioned = frozenset({"numpy", "out", "shuffle", "flat", *numpy_only_methods()})
    name = "numpy-in-place-on-jax-array"
    message = "A NumPy function that writes into its argument is given a JAX array"
    outcome = "TypeError: NumPy cannot write into a JAX array"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if self.check_jax_out(node, ctx) or self.check_numpy_method(node, ctx):
            return
        if self.check_in_place_copy(node, ctx):
            return
        if callee_leaf(node) not in WRITER_NAMES and not node.keywords:
            return  # cheap first: the name a call is written with, or an `out=`
        target = self.written(node, ctx)
        if target is None or not _jax_array(ctx, target):
            return
        name = snippet(ctx, target)
        leaf = callee_leaf(node)
        if leaf == "shuffle":
            cure = f"permute it instead (`{name} = {name}[jax.random.permutation(key, len({name}))]`)"
        elif any(k.arg == "out" for k in node.keywords):
            cure = f"assign the result instead, without `out=` (`{name} = jnp.{leaf}(...)`)"
        else:
            cure = f"use the functional update (`{name} = {name}.at[...].{'add' if leaf == 'at' else 'set'}(...)`)"
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` writes into `{name}`, a JAX array: JAX arrays are "
            f"immutable and no NumPy arrays, so writing into one raises (`TypeError`); {cure}, or "
            f"work on a NumPy copy (`np.array(...)`)",
        )

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        """``scores.flat[i] = v``: an attribute of NumPy arrays that a JAX array defines only to
        refuse (measured: ``flat`` raises ``NotImplementedError``). The ones it simply lacks
        (``strides``, ``data``...) are left alone: other objects often have such names."""
        if numpy_only_attributes().get(node.attr) != "NotImplementedError":
            return
        if not (is_jax_array(ctx.value(node.value)) or passed_array(ctx, node.value) is not None):
            return
        target = snippet(ctx, node.value)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` is NumPy's: `{target}` is a JAX array, which refuses it with "
            f"`NotImplementedError`; write with the functional update instead (`{target} = "
            f"{target}.ravel().at[i].set(v).reshape({target}.shape)`), or read `{target}.ravel()`",
        )

    def check_in_place_copy(self, node: ast.Call, ctx: Context) -> bool:
        """``np.nan_to_num(g, copy=False)`` of a concrete JAX array: NumPy writes into the
        array's read-only buffer (measured with JAX 0.10.2 and NumPy 2: ``ValueError``, with or
        without a value to replace). A tracer is converted first, and refused (JAX602)."""
        copy = next((k.value for k in node.keywords if k.arg == "copy"), None)
        if not (isinstance(copy, ast.Constant) and copy.value is False) or not node.args:
            return False
        if ctx.qualname(node.func) not in COPY_FALSE_WRITERS:
            return False
        target = node.args[0]
        value = ctx.value(target)
        if not is_jax_array(value) or is_traced(value):
            return False
        name = snippet(ctx, target)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` writes into `{name}` in place, a JAX array whose NumPy view is "
            f"read-only: NumPy raises `ValueError` (assignment destination is read-only); assign "
            f"the new array instead (`{name} = jnp.{callee_leaf(node)}({name}, ...)`)",
        )
        return True

    def check_jax_out(self, node: ast.Call, ctx: Context) -> bool:
        """``jnp.add(a, b, out=a)``: ``jax.numpy`` writes into nothing (measured with JAX 0.10.2:
        ``NotImplementedError`` where the function has an ``out`` parameter, ``TypeError``
        where it has none)."""
        out = next((k.value for k in node.keywords if k.arg == "out"), None)
        if out is None or (isinstance(out, ast.Constant) and out.value is None):
            return False
        qualname = ctx.qualname(node.func) or ""
        if not qualname.startswith("jax.numpy."):
            return False
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` asks `jnp.{qualname.removeprefix('jax.numpy.')}` to write into "
            f"`{snippet(ctx, out)}`: JAX arrays are immutable and `jax.numpy` takes no `out=` but "
            f"`None`, so JAX raises (`NotImplementedError`, or `TypeError` where there is no `out` "
            f"parameter); assign the result instead (`{snippet(ctx, out)} = ...`)",
        )
        return True

    def check_numpy_method(self, node: ast.Call, ctx: Context) -> bool:
        """``buffer.fill(0.0)``: a method of NumPy arrays that JAX arrays lack (measured)."""
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in numpy_only_methods():
            return False
        if not _jax_array(ctx, func.value):
            return False
        target = snippet(ctx, func.value)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` calls NumPy's `{func.attr}` on `{target}`, a JAX array, which has "
            f"no such method (JAX arrays are immutable): this raises `AttributeError`; build the new "
            f"array and rebind it (`{target} = jnp.full_like({target}, ...)` for `fill`)",
        )
        return True

    def written(self, node: ast.Call, ctx: Context) -> ast.expr | None:
        """The argument ``node`` writes into, when it is a NumPy writer."""
        func = node.func
        out = next((k.value for k in node.keywords if k.arg == "out"), None)
        if out is None and callee_leaf(node) not in WRITER_NAMES:
            return None  # cheap first: the name a call is written with
        qualname = ctx.qualname(func) or ""
        if out is not None and qualname.startswith("numpy."):
            return out
        if qualname in WRITERS and node.args:
            return node.args[0]
        if isinstance(func, ast.Attribute) and func.attr in GENERATOR_WRITERS and node.args:
            return node.args[0] if _numpy_generator(ctx, func.value) else None
        if isinstance(func, ast.Attribute) and func.attr in UFUNC_METHODS and node.args:
            ufunc = ctx.qualname(func.value) or ""
            return node.args[0] if ufunc.startswith("numpy.") and ufunc.count(".") == 1 else None
        return None


def _numpy_generator(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` holds a NumPy random generator (``np.random.default_rng(seed)``): a name
    bound once to one, or ``self.rng`` that ``__init__`` alone stores it in."""
    found = None
    if isinstance(expr, ast.Name):
        value = ctx.scope.written_value(expr)
        found = None if value is None else (value, ctx.scope)
    elif isinstance(expr, ast.Attribute):
        found = ctx.model.initialized_value(ctx.scope, expr)
    return (
        found is not None
        and isinstance(found[0], ast.Call)
        and ctx.model.qualname(found[0].func, found[1]) in NUMPY_GENERATORS
    )


def _jax_array(ctx: Context, expr: ast.expr) -> bool:
    value = ctx.value(expr)
    return is_jax_array(value) or is_traced_leaf(value) or passed_array(ctx, expr) is not None

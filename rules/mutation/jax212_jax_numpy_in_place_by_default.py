"""JAX212: a ``jax.numpy`` function with NumPy's in-place signature, left to write in place."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.measured import concrete_parameters, inplace_by_default

from ..support.explain import snippet

IN_PLACE = inplace_by_default()
IN_PLACE_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in IN_PLACE)


@dataclass(frozen=True)
class PassInplaceFalse(FixRequest):
    """``jnp.place(x, m, v)`` -> ``jnp.place(x, m, v, inplace=False)``; as a statement, its result
    bound to the array's name: ``x = jnp.place(x, m, v, inplace=False)``."""

    call: ast.Call
    rebinds: str | None  # the name the new array is bound to, for a call used as a statement


class JaxNumpyInPlaceByDefault(Rule):
    """## What it does
    Finds calls of the `jax.numpy` functions that keep NumPy's in-place signature (`jnp.place`,
    `jnp.put`, `jnp.put_along_axis`, `jnp.fill_diagonal`: which ones is measured by
    `tools/measure_jax_api.py`) with `inplace` left to its default, `True`.

    ## Why is this bad?
    NumPy's versions write into their first argument. A JAX array is immutable, so the
    `jax.numpy` versions refuse: given the default they raise (`ValueError: jax.numpy.place
    cannot modify arrays in-place, because JAX arrays are immutable. Pass inplace=False to
    instead return an updated array.`), eagerly and under `jit` alike. With `inplace=False`
    they return the updated array, which has to be used.

    ## Example
    ```python
    import jax.numpy as jnp

    def mask_illegal(logits, legal):
        jnp.place(logits, ~legal, -1e9)
        return logits
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def mask_illegal(logits, legal):
        logits = jnp.place(logits, ~legal, -1e9, inplace=False)
        return logits
    ```

    ## Fix safety
    The fix passes `inplace=False`; where the call is a statement whose first argument is a
    name, it binds the result to that name. Safe where the result was used (the call raised
    before); unsafe where it rebinds the name: other references to the old array (the caller's)
    still hold it, where NumPy would have changed the array they share.

    ## References
    - [jax.numpy.place](https://docs.jax.dev/en/latest/_autosummary/jax.numpy.place.html)
    - [JAX: Common gotchas, in-place updates](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates)
    """

    code = "JAX212"
    name = "jax-numpy-in-place-by-default"
    message = "A `jax.numpy` function is left to update its argument in place, which JAX refuses"
    outcome = "ValueError: JAX arrays are immutable; pass inplace=False"
    fix_title = "Pass `inplace=False` and use the array it returns"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in IN_PLACE_LEAVES:
            return
        qualname = ctx.qualname(node.func)
        if qualname not in IN_PLACE or not _left_in_place(node, qualname):
            return
        name = qualname.removeprefix("jax.numpy.")
        array = node.args[0] if node.args and not isinstance(node.args[0], ast.Starred) else None
        statement = ctx.model.parent_map.get(node)
        rebinds = array.id if isinstance(statement, ast.Expr) and isinstance(array, ast.Name) else None
        discarded = isinstance(statement, ast.Expr)
        use = (
            f"`{rebinds} = jnp.{name}(..., inplace=False)`"
            if rebinds is not None
            else "the array it returns"
            if not discarded
            else "the array it returns (bind it)"
        )
        target = f" `{snippet(ctx, array)}`" if array is not None else ""
        fixable = not discarded or rebinds is not None
        ctx.report(
            node,
            f"`jnp.{name}` cannot update{target} in place: JAX arrays are immutable, so with "
            f"`inplace` left to its default it raises `ValueError`; pass `inplace=False` and use {use}",
            fix=PassInplaceFalse(node, rebinds) if fixable else None,
        )


def _left_in_place(call: ast.Call, qualname: str) -> bool:
    """Whether ``inplace`` is left to its default: not passed by keyword, by position (it is
    the fifth parameter of ``put_along_axis``) or through a ``**`` spread."""
    if any(k.arg in ("inplace", None) for k in call.keywords):
        return False
    parameters = concrete_parameters(qualname)
    position = (
        next((p.position for p in parameters.parameters if p.name == "inplace"), None) if parameters else None
    )
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    return position is None or len(call.args) <= position

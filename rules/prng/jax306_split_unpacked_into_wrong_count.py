"""JAX306: ``a, b, c = jax.random.split(key)``, unpacked into another number of keys than made."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.dtypes import python_int_value
from ..support.explain import snippet

DEFAULT_NUM = 2  # `jax.random.split(key)` makes two keys


class SplitUnpackedIntoWrongCount(Rule):
    """## What it does
    Finds `jax.random.split(key, num)` unpacked into another number of names than `num` keys
    (two when `num` is not given): `k1, k2, k3 = jax.random.split(key)`,
    `a, b = jax.random.split(key, 3)`.

    ## Why is this bad?
    `split` returns an array of exactly `num` keys, and unpacking it into another number of
    names raises `ValueError` ("not enough values to unpack (expected 3, got 2)", or "too many
    values to unpack"), for typed and legacy keys, eagerly and under `jit`.

    ## Example
    ```python
    import jax

    key = jax.random.key(0)
    key, init_key, dropout_key = jax.random.split(key)
    ```

    ## Use instead
    ```python
    import jax

    key = jax.random.key(0)
    key, init_key, dropout_key = jax.random.split(key, 3)
    ```

    ## Fix safety
    No automatic fix: whether a key is missing or a name is extra is the author's.

    ## References
    - [jax.random.split](https://docs.jax.dev/en/latest/_autosummary/jax.random.split.html)
    """

    code = "JAX306"
    mentioned = frozenset({"split"})
    name = "split-unpacked-into-wrong-count"
    message = "`jax.random.split` is unpacked into another number of names than the keys it makes"
    outcome = "ValueError: not enough (or too many) values to unpack"

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        call = node.value
        if not isinstance(call, ast.Call) or ctx.qualname(call.func) != "jax.random.split":
            return
        made = _split_count(call, ctx)
        if made is None:
            return
        for target in node.targets:
            if not isinstance(target, (ast.Tuple, ast.List)):
                continue
            if any(isinstance(element, ast.Starred) for element in target.elts) or len(target.elts) == made:
                continue
            ctx.report(
                node,
                f"`{snippet(ctx, call)}` makes {made} keys, unpacked into {len(target.elts)} names: "
                f"Python raises `ValueError` ({_too(made, len(target.elts))}); pass "
                f"`num={len(target.elts)}` to make one key per name",
            )
            return


def _split_count(call: ast.Call, ctx: Context) -> int | None:
    """The number of keys ``split`` makes: its ``num`` (a literal or a name bound once to one),
    2 when not given; None when unknown or given through ``*args``/``**kwargs``."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    num = call.args[1] if len(call.args) > 1 else keyword_argument(call, "num")
    if num is None:
        return DEFAULT_NUM
    if isinstance(num, ast.Name):
        num = ctx.scope.written_value(num)
    count = python_int_value(num)
    return count if count is not None and count >= 0 else None


def _too(made: int, names: int) -> str:
    return (
        f"not enough values to unpack, expected {names}, got {made}"
        if made < names
        else "too many values to unpack"
    )

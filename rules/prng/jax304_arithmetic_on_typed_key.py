"""JAX304: arithmetic on a typed PRNG key (one made by ``jax.random.key``)."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import api
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet
from .keypaths import key_made_by

# jax.numpy's arithmetic, which rejects a key dtype as the operators do (measured with JAX 0.10.2)
ARITHMETIC = frozenset(
    f"jax.numpy.{name}"
    for name in ("add", "subtract", "multiply", "negative", "mod", "floor_divide", "bitwise_xor")
)


class ArithmeticOnTypedKey(Rule):
    """## What it does
    Finds arithmetic (`key + step`, `key * 2`, `key ^ seed`) on a typed PRNG key: one made by
    `jax.random.key(...)` or `jax.random.wrap_key_data(...)`, or split or folded from one,
    directly or through a name bound once.

    ## Why is this bad?
    A typed key has the dtype `key<fry>`, not an integer dtype: JAX raises `TypeError` ("add
    does not accept dtypes key<fry>, int32"). Adding an integer to a legacy `PRNGKey` (a uint32
    array) ran, which is where the habit comes from; it never made independent keys anyway.
    Derive a key per step with `jax.random.fold_in(key, step)`, or split it.

    ## Example
    ```python
    import jax

    key = jax.random.key(0)
    for step in range(3):
        print(jax.random.normal(key + step))
    ```

    ## Use instead
    ```python
    import jax

    key = jax.random.key(0)
    for step in range(3):
        print(jax.random.normal(jax.random.fold_in(key, step)))
    ```

    ## Fix safety
    No automatic fix: `fold_in` draws other numbers than the arithmetic meant to.

    ## References
    - [JAX PRNG keys: typed keys](https://docs.jax.dev/en/latest/jep/9263-typed-keys.html)
    - [jax.random.fold_in](https://docs.jax.dev/en/latest/_autosummary/jax.random.fold_in.html)
    """

    code = "JAX304"
    name = "arithmetic-on-typed-key"
    message = "Arithmetic on a typed PRNG key"
    outcome = "TypeError: typed keys have no arithmetic"
    visits_anywhere = frozenset({ast.BinOp, ast.UnaryOp, ast.Call})

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        self.check(node, [node.left, node.right], ctx)

    def visit_UnaryOp(self, node: ast.UnaryOp, ctx: Context) -> None:
        if isinstance(node.op, (ast.USub, ast.Invert)):
            self.check(node, [node.operand], ctx)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if node.args and ctx.qualname(node.func) in ARITHMETIC:
            self.check(node, node.args[:2], ctx)

    def check(self, node: ast.expr, operands: list[ast.expr], ctx: Context) -> None:
        for operand in operands:
            made_by = typed_key_maker(ctx, operand, ctx.scope)
            if made_by is None:
                continue
            ctx.report(
                node,
                f"`{snippet(ctx, operand)}` is a typed key (made by `{snippet(ctx, made_by.func)}` at "
                f"line {made_by.lineno}): its dtype is a key type (`key<fry>`), not an integer, so `{snippet(ctx, node)}` raises "
                f"`TypeError`; derive a key with `jax.random.fold_in(key, n)` or split it",
            )
            return


def typed_key_maker(ctx: Context, expr: ast.expr, scope: Scope) -> ast.Call | None:
    """The ``jax.random.key(...)`` call ``expr`` is known to hold a key of (see
    :func:`key_made_by`)."""
    return key_made_by(ctx, expr, scope, api.TYPED_KEY_MAKERS)

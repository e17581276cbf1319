"""JAX617: a function handed to a ``lax`` loop or branch that cannot take the arguments the
primitive calls it with."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import call_argument, callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.functions import FunctionInfo

# primitive -> the functions it calls: (position, keyword, how many arguments, what they are)
FIXED_CALLS: dict[str, tuple[tuple[int, str, int, str], ...]] = {
    "jax.lax.fori_loop": ((2, "body_fun", 2, "the step index and the carry"),),
    "jax.lax.while_loop": (
        (0, "cond_fun", 1, "the carry"),
        (1, "body_fun", 1, "the carry"),
    ),
    "jax.lax.scan": ((0, "f", 2, "the carry and one slice of `xs`"),),
    "jax.lax.map": ((0, "f", 1, "one slice of `xs`"),),
}
# branch primitives: the position of the first operand; every branch gets all the operands
BRANCHES = {"jax.lax.cond": (1, 3), "jax.lax.switch": (None, 2)}
LEAVES = frozenset(name.rsplit(".", 1)[1] for name in [*FIXED_CALLS, *BRANCHES])


class LaxBodyArity(Rule):
    """## What it does
    Finds a function of this module handed to a `lax` primitive that calls it with a number of
    positional arguments its signature cannot take: a `fori_loop` body written `def body(x)`
    (it gets the step index and the carry), a `while_loop` condition or body taking two, a
    `scan` body taking one (it gets the carry and a slice of `xs`), or a `cond`/`switch` branch
    whose parameters do not match the operands passed.

    ## Why is this bad?
    The primitive calls the function with exactly those arguments when it traces it, so the
    call raises `TypeError` ("body() takes 1 positional argument but 2 were given"). Give the
    function the parameters the primitive passes (`def body(i, x)`; `_` for one it ignores).

    ## Example
    ```python
    from jax import lax

    def body(x):
        return x * 0.5 + 1.0

    lax.fori_loop(0, 10, body, 0.0)
    ```

    ## Use instead
    ```python
    from jax import lax

    def body(_, x):
        return x * 0.5 + 1.0

    lax.fori_loop(0, 10, body, 0.0)
    ```

    ## Fix safety
    No automatic fix: which parameter the function meant to receive is the author's call.

    ## References
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    - [Control flow](https://docs.jax.dev/en/latest/control-flow.html)
    """

    code = "JAX617"
    name = "lax-body-arity"
    message = "A function handed to a `lax` primitive cannot take the arguments it is called with"
    outcome = "TypeError when JAX traces the loop or branch"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in LEAVES:
            return
        qualname = ctx.qualname(node.func)
        if qualname in FIXED_CALLS:
            for position, keyword, count, what in FIXED_CALLS[qualname]:
                self.check(node, ctx, call_argument(node, position, keyword), count, what, qualname)
        elif qualname in BRANCHES:
            branch_at, operands_from = BRANCHES[qualname]
            if any(isinstance(a, ast.Starred) for a in node.args) or node.keywords:
                return
            count = len(node.args) - operands_from
            if count < 0:
                return
            what = "the operands passed after the branches"
            if branch_at is not None:
                branches = node.args[branch_at : branch_at + 2]
                if len(branches) < 2 or any(
                    ctx.model.resolve_function(b, ctx.scope) is None for b in branches
                ):
                    return  # perhaps the old `cond(pred, true_operand, true_fun, false_operand, false_fun)`
            elif len(node.args) > 1 and isinstance(node.args[1], (ast.List, ast.Tuple)):
                branches = list(node.args[1].elts)
            else:
                branches = []
            for branch in branches:
                self.check(node, ctx, branch, count, what, qualname)

    def check(
        self, node: ast.Call, ctx: Context, argument: ast.expr | None, count: int, what: str, qualname: str
    ) -> None:
        if argument is None:
            return
        found = ctx.model.resolve_function(argument, ctx.scope)
        if found is None or found[1]:
            return
        function = found[0]
        if _accepts(function, count):
            return
        primitive = "lax." + qualname.rsplit(".", 1)[1]
        taken = len(function.positional_names())
        ctx.report(
            argument,
            f"`{primitive}` (line {node.lineno}) calls `{function.name}` with {count} positional "
            f"argument{'s' if count != 1 else ''} ({what}), but `{function.name}` takes {taken}: JAX "
            f"raises `TypeError` when it traces it; give `{function.name}` one parameter for each",
        )


def _accepts(function: FunctionInfo, count: int) -> bool:
    """Whether ``function`` can be called with ``count`` positional arguments (and no keywords)."""
    args = function.node.args
    positional = [*args.posonlyargs, *args.args]
    required = len(positional) - len(args.defaults)
    if any(d is None for d in args.kw_defaults):
        return True  # a keyword-only parameter without default: left to the type checker
    if count < required:
        return False
    return args.vararg is not None or count <= len(positional)

"""JAX501: Python ``if``/``elif``/``while``/conditional expression on a traced value."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import MarkStatic, WhereExpression
from jaxlint.semantic.values import is_traced_leaf

from ..support.blocks import side_effect_free
from ..support.callsites import passes_a_string
from ..support.explain import (
    function_name,
    next_statement,
    safe_where_it_always_failed,
    snippet,
    static_advice,
    static_request,
    why_traced,
)
from ..support.handlers import caught_here
from ..support.lifting import IfPlan, WhileLoop, if_plan, nan_guards, while_plan
from .conditions import bool_error, compared_with_strings, converts_tracer, static_flag_parameter

BranchFix = MarkStatic | WhereExpression | IfPlan | WhileLoop

CURES = {
    "if": "`jnp.where` or `jax.lax.cond`",
    "while": "`jax.lax.while_loop`",
    "conditional expression": "`jnp.where`",
    "comprehension filter": "`jnp.where` with a fill value",
}


class PythonBranchOnTracer(Rule):
    """## What it does
    Finds Python `if`, `elif`, `while` and `a if cond else b` whose condition is a traced
    value, and `match` on a traced value with a value pattern (`case 0:`), inside code that JAX
    traces abstractly (`jit`, `vmap`, `lax` bodies). Conditions on
    static information (`x.shape[0] > 2`, `x.ndim`, `x is None`, `isinstance`, static arguments)
    are fine and are not reported.

    ## Why is this bad?
    Python decides a branch by calling `bool()` on the condition. While tracing, a traced value
    has no concrete value yet, so JAX raises `jax.errors.TracerBoolConversionError`. Choose
    values with `jnp.where`, branch inside the program with `jax.lax.cond` / `lax.switch`, loop
    with `jax.lax.while_loop`, or, when the condition is really configuration, mark it static
    with `static_argnames`.

    Under a bare `jax.grad` (no `jit`) values stay concrete and Python branches work; this rule
    stays silent there.

    ## Example
    ```python
    import jax

    @jax.jit
    def relu_or_leak(x):
        if x.sum() > 0:
            return x
        return 0.01 * x
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def relu_or_leak(x):
        return jnp.where(x.sum() > 0, x, 0.01 * x)
    ```

    ## Fix safety
    A flag parameter (`if training:`) is added to `static_argnames` of its `jax.jit`, or, in a
    helper that one jitted function calls with its own parameter (and nothing else names), to
    that caller's. An
    `if`/`elif`/`else` chain whose branches only return, or only bind the same names to,
    side-effect-free expressions becomes nested `jnp.where` (one per element where every branch
    returns a tuple of as many arrays, `return loss, aux`: the result stays a tuple, as a `scan`
    body must hand it back), and `a if c else b` becomes `jnp.where(c, a, b)`; operands that are undefined outside their branch (`log`, `sqrt`,
    division, fractional powers) get the double-where guard, `jnp.log(jnp.where(c, x, 1.0))`, so
    the unselected branch cannot put NaN into gradients. Other `if` statements become
    `jax.lax.cond` with the branches lifted into local functions taking the variables they read
    and returning those they rebind; `while` loops become `jax.lax.while_loop` carrying every
    variable the body rebinds. No fix when a variable is not defined on every path, or a body
    holds `return`, `break`, `continue`, `yield`, `raise` or stores into containers. Safe where
    the function only ever runs traced in this module (decorated with a transformation, rebound
    to one, a `lax` body, a bound method given to `jax.jit`, or called only from such code): the
    branch then raised on every run, and the rewrite computes what eager Python would. A static
    flag also needs every call to reach the `if` (no call that worked needed it traced); a
    `while_loop` must not be under `jax.grad`, which cannot differentiate it. Elsewhere unsafe:
    the branches must agree in shape and dtype, and a static flag recompiles per value.

    ## References
    - [jax.errors.TracerBoolConversionError](https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError)
    - [JAX: Control flow](https://docs.jax.dev/en/latest/control-flow.html)
    """

    code = "JAX501"
    traced_only = True
    name = "python-branch-on-tracer"
    message = "Python control flow on a traced value"
    outcome = "jax.errors.TracerBoolConversionError"
    fix_title = "Use `jnp.where` / `jax.lax.cond` / `jax.lax.while_loop`, or make the flag static"
    fix_availability = FixAvailability.SOMETIMES

    def visit_If(self, node: ast.If, ctx: Context) -> None:
        self.check(node, node.test, "if", ctx)

    def visit_While(self, node: ast.While, ctx: Context) -> None:
        self.check(node, node.test, "while", ctx)

    def visit_IfExp(self, node: ast.IfExp, ctx: Context) -> None:
        self.check(node, node.test, "conditional expression", ctx)

    def visit_comprehension(self, node: ast.comprehension, ctx: Context) -> None:
        for condition in node.ifs:
            self.check(condition, condition, "comprehension filter", ctx)

    def visit_Match(self, node: ast.Match, ctx: Context) -> None:
        """``match kind:`` with ``case 0:``: Python compares the subject with ``==`` and asks for
        the truth of the result (measured with JAX 0.10.2). A class, sequence or mapping pattern
        only asks what the tracer is, and never matches it."""
        if not ctx.abstract or not is_traced_leaf(ctx.value(node.subject)):
            return
        value = next(
            (p for case in node.cases for p in ast.walk(case.pattern) if isinstance(p, ast.MatchValue)), None
        )
        if value is None or caught_here(ctx, node, "TracerBoolConversionError"):
            return
        subject = node.subject
        if isinstance(value.value, ast.Constant) and isinstance(value.value.value, str):
            return  # a string pattern: callers pass a string, where JAX611 reports it
        flag = static_flag_parameter(ctx, subject)
        cure = static_advice(flag, ctx) if flag else "use `jax.lax.switch` on an index"
        ctx.report(
            node,
            f"Python `match` on traced `{snippet(ctx, subject)}` in `{function_name(ctx)}`: "
            f"`case {snippet(ctx, value.value)}:` compares it with `==`, and taking the truth of "
            f"the result raises {bool_error(ctx, subject)} ({why_traced(ctx, subject)}); {cure}",
            end=subject,
            fix=safe_where_it_always_failed(ctx, flag, node),
        )

    def check(self, node: ast.AST, test: ast.expr, kind: str, ctx: Context) -> None:
        if not ctx.abstract:
            return
        is_elif = kind == "if" and _is_elif(node, ctx)
        keyword = "elif" if is_elif else kind
        string = compared_with_strings(ctx, test)
        if string is not None:
            self.report_string(node, test, string, keyword, ctx)
            return
        culprit = converts_tracer(ctx, test)
        if culprit is None or caught_here(ctx, node, "TracerBoolConversionError"):
            return
        flag = static_flag_parameter(ctx, culprit)
        cure = static_advice(flag, ctx) if flag else f"use {CURES[kind]}"
        ctx.report(
            node,
            f"Python `{keyword}` on traced `{snippet(ctx, culprit)}` in `{function_name(ctx)}` raises "
            f"{bool_error(ctx, culprit)} ({why_traced(ctx, culprit)}); {cure}",
            end=test,
            fix=safe_where_it_always_failed(
                ctx, flag if flag else None if is_elif else _plan(node, ctx), node
            ),
        )

    def report_string(
        self, node: ast.AST, test: ast.expr, name: ast.Name, keyword: str, ctx: Context
    ) -> None:
        """``if kind == "relu":`` on a traced ``kind``: a string, which cannot be traced at all
        (where a call in sight passes the string, JAX611 reports it there, where JAX raises)."""
        if ctx.function is not None and passes_a_string(ctx.model, ctx.function, name.id):
            return
        flag = static_request(ctx, name.id)
        cure = static_advice(flag, ctx) if flag else f"make `{name.id}` a static argument"
        ctx.report(
            node,
            f"Python `{keyword}` on `{snippet(ctx, test)}` in `{function_name(ctx)}`: `{name.id}` is "
            f"compared with a string, so callers pass a Python string, which cannot be traced "
            f"({why_traced(ctx, name)}): JAX raises `TypeError` at the call (a string is not a valid "
            f"JAX type); {cure}",
            end=test,
            fix=flag,
        )


def _plan(node: ast.AST, ctx: Context) -> BranchFix | None:
    """How the fixer can rewrite this branch (see ``rules/support/lifting.py``)."""
    if isinstance(node, ast.If):
        return if_plan(ctx, node, next_statement(ctx, node))
    if isinstance(node, ast.While):
        return while_plan(ctx, node)
    if isinstance(node, ast.IfExp) and all(side_effect_free(ctx, e) for e in (node.body, node.orelse)):
        return WhereExpression(node, nan_guards(ctx, node.body), nan_guards(ctx, node.orelse))
    return None


def _is_elif(node: ast.AST, ctx: Context) -> bool:
    parent = ctx.parent
    return isinstance(parent, ast.If) and len(parent.orelse) == 1 and parent.orelse[0] is node

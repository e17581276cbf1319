"""JAX101: ``print`` inside a traced function."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.values import is_traced

from ..support.explain import function_name, prints_alike_at_run_time, shows_tracer, why_traced
from .jax108_tracer_formatted_into_string import spec_formatted

# The printing functions, as the message names them (`pprint.pprint` formats as `print` does).
PRINTS = {"builtins.print": "print", "pprint.pprint": "pprint.pprint", "pprint.pp": "pprint.pp"}
PRINT_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in PRINTS)


@dataclass(frozen=True)
class DebugPrint(FixRequest):
    """``print(...)`` -> ``jax.debug.print(...)`` with the same text."""

    call: ast.Call


class PrintInTracedFunction(Rule):
    """## What it does
    Finds calls to the built-in `print` (or `pprint.pprint`) of a traced value inside functions
    that JAX traces abstractly (`jax.jit`, `jax.vmap`, `lax.scan` bodies, ...).

    ## Why is this bad?
    A traced function's Python body runs only while JAX traces it (once per compilation); the compiled program
    that runs on later calls contains no Python. So `print` fires only on the first call
    (and on each re-trace), and it shows tracers such as
    `Traced<ShapedArray(float32[2])>` instead of values. `jax.debug.print` is staged into
    the compiled program and prints the runtime values on every call.

    A `print` whose arguments are all static (strings, shapes, dtypes) is not reported: printing
    while tracing is the idiomatic way to see shapes, and when JAX compiles. In a branch of
    `lax.cond`/`lax.switch` it is: JAX traces every branch whichever is taken, so the text
    appears for a branch that never runs (`print("warmup branch taken")`). Under a bare
    `jax.grad` the function runs eagerly on every call, so `print` works there and this rule
    stays silent. So it does for a function only traced by `jax.eval_shape` or
    `jax.make_jaxpr` (and what it calls): nothing compiled from it ever runs, so printing while
    tracing is all it can do (`jax.debug.print` would print nothing there).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def normalize(x):
        norm = jnp.linalg.norm(x)
        print("norm:", norm)
        return x / norm
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def normalize(x):
        norm = jnp.linalg.norm(x)
        jax.debug.print("norm: {}", norm)
        return x / norm
    ```

    ## Fix safety
    The fix rewrites `print(a, b)` to `jax.debug.print("{} {}", a, b)`, keeping `sep`, string
    literals and f-strings (their fields become `{}` placeholders, format specs and conversions
    kept, the values passed as arguments). Safe: the compiled function now prints on every call,
    as the function did when run eagerly. The output is produced asynchronously, so its order
    relative to other host output may differ. `file=`, `flush=` and a non-newline `end=` have no
    `jax.debug.print` equivalent: no fix is offered then. Nor where a printed value would not
    print alike as an argument (a shape tuple prints as a tuple of arrays; a dtype or a string
    is formatted at trace time): only arrays and Python numbers move; nor where literal braces
    come before the first value (`jax.debug.print` then prints its text raw). `pprint.pprint` is
    not rewritten: `jax.debug.print` does not lay out a structure as it does.

    ## References
    - [JAX: Common gotchas, pure functions](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions)
    - [JAX: Debugging with jax.debug.print](https://docs.jax.dev/en/latest/debugging/print_breakpoint.html)
    """

    code = "JAX101"
    traced_only = True
    name = "print-in-traced-function"
    message = "`print` in a traced function runs only while tracing"
    outcome = "prints once at trace time, showing tracers rather than values"
    fix_title = "Replace with `jax.debug.print`"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.traced_to_run or callee_leaf(node) not in PRINT_LEAVES:
            return
        printer = PRINTS.get(ctx.qualname(node.func) or "")
        if printer is None:
            return
        if not any(shows_tracer(ctx, arg) for arg in node.args):
            if printer == "print":
                self.check_branch_print(node, ctx)
            return  # shapes, dtypes and strings: the trace-time debugging idiom
        when = "runs only while JAX traces it, and " if ctx.trace_reused else ""
        effect = f"{when}shows tracers, not values"
        if ctx.abstract and any(is_traced(ctx.value(v)) for a in node.args for v in spec_formatted(a)):
            effect = "raises `TypeError` while JAX traces it (a tracer has no value to format with a spec)"
        ctx.report(
            node,
            f"`{printer}` in `{function_name(ctx)}` {effect} ({why_traced(ctx)}); use `jax.debug.print`",
            fix=_debug_print_fix(node, ctx) if printer == "print" else None,
        )

    def check_branch_print(self, node: ast.Call, ctx: Context) -> None:
        """``print("warmup branch taken")`` in a branch of ``lax.cond``/``switch``: JAX traces
        every branch, so it prints for the branch that is not taken too, and never when the
        branch runs: it says nothing of which branch ran."""
        function = ctx.function
        cond = function.branch_of if function is not None else None
        if cond is None:
            return
        lax_function = ast.unparse(cond.func)
        ctx.report(
            node,
            f"`print` in `{function_name(ctx)}`, a branch of `{lax_function}` (line {cond.lineno}), "
            f"runs when JAX traces the `{lax_function}`, which traces every branch whichever is "
            f"taken, and not when this branch runs; use `jax.debug.print`, which prints when it runs",
            fix=_debug_print_fix(node, ctx),
        )


def _debug_print_fix(node: ast.Call, ctx: Context) -> DebugPrint | None:
    """The fix to `jax.debug.print`, where every printed value prints alike as its argument."""
    return DebugPrint(node) if all(prints_alike_at_run_time(ctx, v) for v in _printed_values(node)) else None


def _printed_values(call: ast.Call) -> list[ast.expr]:
    """The values a ``print`` formats (its arguments, an f-string's fields; not string literals)."""
    found: list[ast.expr] = []
    for argument in call.args:
        if isinstance(argument, ast.JoinedStr):
            found += [v.value for v in argument.values if isinstance(v, ast.FormattedValue)]
        elif not (isinstance(argument, ast.Constant) and isinstance(argument.value, str)):
            found.append(argument)
    return found

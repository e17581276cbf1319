"""JAX505: a ``while_loop`` (or a ``fori_loop`` with traced bounds) differentiated in reverse mode."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import FUNCTION_NODES
from jaxlint.semantic.values import is_traced

from ..support.differentiation import (
    dependent_names,
    dependent_read,
    differentiated_around,
    differentiated_caller,
)

WHILE_LOOP = "jax.lax.while_loop"
FORI_LOOP = "jax.lax.fori_loop"


class LoopUnderReverseGrad(Rule):
    """## What it does
    Finds a `lax.while_loop`, or a `lax.fori_loop` whose bounds are traced, inside a function
    that `jax.grad` (or `value_and_grad`, `jacrev`, `hessian`, equinox's and flax's
    `grad`) differentiates, when the loop computes with the differentiated arguments: its
    initial value or its functions read them. The loop may sit in a function nested in the
    differentiated one (a `lax` body).

    ## Why is this bad?
    A `while_loop` runs an unknown number of steps, so JAX cannot keep what reverse mode needs
    to run it backwards: it raises `ValueError` ("Reverse-mode differentiation does not work for
    lax.while_loop or lax.fori_loop with dynamic start/stop values"). A `fori_loop` with static
    Python bounds is a `scan` and differentiates; with traced bounds it is a `while_loop`.
    Forward mode (`jax.jvp`, `jax.jacfwd`) works; `jax.vjp` raises only when its pullback is
    called, and is left out.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax import lax

    def newton_sqrt(a):
        return lax.while_loop(lambda x: jnp.abs(x * x - a) > 1e-6, lambda x: 0.5 * (x + a / x), a)

    slope = jax.grad(newton_sqrt)
    ```

    ## Use instead
    ```python
    import jax
    from jax import lax

    def newton_sqrt(a):
        return lax.fori_loop(0, 20, lambda i, x: 0.5 * (x + a / x), a)

    slope = jax.grad(newton_sqrt)
    ```
    Give `fori_loop` static bounds, or use `lax.scan` over a fixed number of steps (masking the
    steps past the end), or differentiate in forward mode.

    ## Fix safety
    No fix: the number of steps must become static, which only the author can choose.

    ## References
    - [jax.lax.while_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.while_loop.html)
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    """

    code = "JAX505"
    name = "loop-under-reverse-grad"
    message = "A `while_loop` (or a `fori_loop` with traced bounds) is differentiated in reverse mode"
    outcome = "ValueError: reverse-mode differentiation does not work for while_loop"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in ("while_loop", "fori_loop"):
            return
        qualname = ctx.qualname(node.func)
        if qualname not in (WHILE_LOOP, FORI_LOOP) or ctx.function is None:
            return
        if qualname == FORI_LOOP and not _traced_bounds(ctx, node):
            return
        found = differentiated_around(ctx, ctx.function) or differentiated_caller(ctx, ctx.function)
        if found is None:
            return
        target, transform, line, differentiated = found
        read = _reads_any(ctx, node, qualname, target, differentiated)
        if read is None or not _result_differentiated(ctx, node, target):
            return
        loop = "`lax.while_loop`" if qualname == WHILE_LOOP else "`lax.fori_loop` with traced bounds"
        ctx.report(
            node,
            f"{loop} computes with `{read}`, which `{_short(transform)}` at line {line} differentiates "
            f"in reverse mode (in `{target.name}`): JAX raises `ValueError` (reverse-mode "
            f"differentiation does not work for a while_loop, nor a fori_loop with traced bounds); give "
            f"the loop static bounds (a fori_loop with Python ints is a scan), use `lax.scan` over a "
            f"fixed number of steps, or differentiate in forward mode (`jax.jacfwd`)",
        )


def _short(qualname: str) -> str:
    return qualname.replace("equinox.", "eqx.").replace("flax.nnx.", "nnx.")


def _traced_bounds(ctx: Context, node: ast.Call) -> bool:
    bounds = [*node.args[:2], *(k.value for k in node.keywords if k.arg in ("lower", "upper"))]
    return any(is_traced(ctx.value(b)) for b in bounds)


def _result_differentiated(ctx: Context, node: ast.Call, target: FunctionInfo) -> bool:
    """Whether the loop's result may reach what is differentiated: not when the names it is
    assigned to are read only inside ``stop_gradient`` or, in the differentiated function with
    ``has_aux=True``, only in the auxiliary part of its returns (reverse mode then never runs
    the loop backwards: measured, no error)."""
    function = ctx.function
    statement = ctx.statement_of(node)
    if function is None or not isinstance(statement, ast.Assign) or statement.value is not node:
        return True
    names = {t.id for target_ in statement.targets for t in ast.walk(target_) if isinstance(t, ast.Name)}
    body = function.node.body if isinstance(function.node, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
    if not body or any(function.scope.bound.get(name) != 1 for name in names):
        return True  # bound again: which value a read sees is not followed
    nodes = list(own_nodes(body))
    if any(_closes_over(ctx, nested, names) for nested in nodes if isinstance(nested, FUNCTION_NODES)):
        return True  # read by a function nested here: where it goes is not followed
    reads = [n for n in nodes if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)]
    blocked = _without_derivative(ctx, function.node) | (
        _aux_parts(function, target) if function is target else set()
    )
    return any(id(n) not in blocked for n in reads)


def _closes_over(ctx: Context, nested: ast.AST, names: set[str]) -> bool:
    scope = ctx.model.index.scopes.get(nested)
    bound = scope.bound if scope is not None else {}
    return any(isinstance(n, ast.Name) and n.id in names and n.id not in bound for n in ast.walk(nested))


def _without_derivative(ctx: Context, root: ast.AST) -> set[int]:
    """The nodes under ``root`` whose value reaches nothing differentiable: inside
    ``stop_gradient(...)``, a comparison, a step function (``jnp.floor``, ``jnp.sign``...) or a
    cast to an integer or boolean dtype (measured: reverse mode then never transposes a
    ``while_loop`` whose result only goes there)."""
    blocked: set[int] = set()
    for node in ast.walk(root):
        if isinstance(node, ast.Compare) or (isinstance(node, ast.Call) and _zero_derivative(ctx, node)):
            blocked |= {id(inner) for inner in ast.walk(node)}
    return blocked


def _zero_derivative(ctx: Context, call: ast.Call) -> bool:
    qualname = ctx.qualname(call.func)
    if qualname in NOT_DIFFERENTIATED or qualname in STEP_FUNCTIONS:
        return True
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "astype" and call.args:
        dtype = call.args[0]
        name = ctx.qualname(dtype) or (dtype.value if isinstance(dtype, ast.Constant) else None)
        return isinstance(name, str) and name.rsplit(".", 1)[-1].rstrip("_").startswith(INTEGER_DTYPES)
    return False


def _aux_parts(function: FunctionInfo, target: FunctionInfo) -> set[int]:
    """The nodes of the auxiliary part of the function's ``return loss, aux`` statements, when
    every reverse-mode transform of it passes ``has_aux=True``."""
    sites = target.reverse_sites
    if not sites or not all(_has_aux(call) for _, _, call, _ in sites):
        return set()
    found: set[int] = set()
    for node in ast.walk(function.node):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
            found |= {id(inner) for inner in ast.walk(node.value.elts[1])}
    return found


def _has_aux(call: ast.Call | None) -> bool:
    keyword = next((k for k in call.keywords if k.arg == "has_aux"), None) if call is not None else None
    return keyword is not None and isinstance(keyword.value, ast.Constant) and keyword.value.value is True


def _reads_any(
    ctx: Context, node: ast.Call, qualname: str, target: FunctionInfo, differentiated: set[str]
) -> str | None:
    """A name holding what depends on the differentiated parameters of ``target`` that the loop
    carries: read by its initial value or free in its body (a condition that reads it carries
    no tangent). None inside ``stop_gradient`` or an implicitly differentiated solver."""
    if any(
        isinstance(a, ast.Call) and ctx.qualname(a.func) in NOT_DIFFERENTIATED for a in ctx.ancestors()
    ) or any(
        isinstance(c, ast.Call) and ctx.qualname(c.func) in IMPLICIT_DIFFERENTIATION
        for c in ast.walk(target.node)
    ):
        return None
    dependent = dependent_names(ctx, target, differentiated)
    init = node.args[3] if qualname == FORI_LOOP and len(node.args) > 3 else None
    if qualname == WHILE_LOOP and len(node.args) > 2:
        init = node.args[2]
    init = next((k.value for k in node.keywords if k.arg == "init_val"), init)
    body = node.args[1] if qualname == WHILE_LOOP and len(node.args) > 1 else None
    if qualname == FORI_LOOP and len(node.args) > 2:
        body = node.args[2]
    body = next((k.value for k in node.keywords if k.arg in ("body_fun", "body")), body)
    found = dependent_read(ctx, init, dependent) if init is not None else None
    if found is None and body is not None:
        found = next((n for n in _free_reads(ctx, body) if n.id in dependent), None)
    if found is None:
        return None
    owner = ctx.model.index.scopes.get(ctx.function.node) if ctx.function is not None else None
    resolved = owner.lookup(found.id) if owner is not None else None
    return found.id if resolved is target.scope else None


# calls whose value carries no derivative, and solvers JAX differentiates implicitly
NOT_DIFFERENTIATED = frozenset({"jax.lax.stop_gradient"})
# functions whose derivative is zero everywhere it exists, and dtypes a cast to drops it
STEP_FUNCTIONS = frozenset(
    f"jax.numpy.{name}" for name in ("floor", "ceil", "round", "rint", "trunc", "sign", "argmax", "argmin")
)
INTEGER_DTYPES = ("int", "uint", "bool")
IMPLICIT_DIFFERENTIATION = frozenset({"jax.lax.custom_root", "jax.lax.custom_linear_solve"})


def _free_reads(ctx: Context, function: ast.expr) -> list[ast.Name]:
    """The names a loop function (a lambda, or a ``def`` of the code around) reads and does not
    bind itself."""
    node: ast.AST | None = function if isinstance(function, ast.Lambda) else None
    if isinstance(function, ast.Name):
        owner = ctx.scope.lookup(function.id)
        node = None if owner is None else owner.single_def(function.id) or owner.single_value(function.id)
    if node is None or node not in ctx.model.index.scopes:
        return []
    bound = ctx.model.index.scopes[node].bound
    return [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound
    ]

"""JAX508: a differentiated argument reaches the output only through rounding or an integer cast."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import FUNCTION_NODES

from ..support.differentiation import dependent_names, differentiated_params
from ..support.explain import snippet

# functions whose derivative is zero everywhere it exists (JAX defines it so): what passes
# through them carries no gradient
ZERO_GRADIENT = frozenset(
    {
        *(f"jax.numpy.{name}" for name in ("round", "rint", "floor", "ceil", "trunc", "fix", "sign")),
        *(f"jax.numpy.{name}" for name in ("argmax", "argmin", "argsort", "floor_divide")),
        "jax.lax.stop_gradient",
        "builtins.len",
        "builtins.int",
        "builtins.bool",
    }
)
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size"})
INTEGER_DTYPE_WORDS = ("int", "bool")


class GradientCutByRounding(Rule):
    """## What it does
    Finds a function differentiated in reverse mode (`jax.grad`, `value_and_grad`, `jacrev`)
    whose differentiated argument reaches what it returns only through operations whose
    derivative is zero: `jnp.round`/`floor`/`ceil`/`sign`, `//`, `argmax`, `stop_gradient`, or a
    cast to an integer or boolean dtype (`.astype(jnp.int32)`).

    ## Why is this bad?
    The gradient with respect to that argument is zero everywhere, silently: a quantizer in a
    loss (`jnp.round(w * 4).astype(jnp.int32) / 4`) stops training. Quantization-aware training
    passes the gradient straight through instead:
    `w + jax.lax.stop_gradient(quantize(w) - w)`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def quantised_loss(w, x, target):
        q = jnp.round(w * 4).astype(jnp.int32) / 4
        return jnp.sum((q * x - target) ** 2)

    g = jax.grad(quantised_loss)(jnp.array([0.3, -0.8]), jnp.ones(2), jnp.ones(2))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def quantised_loss(w, x, target):
        q = w + jax.lax.stop_gradient(jnp.round(w * 4) / 4 - w)
        return jnp.sum((q * x - target) ** 2)

    g = jax.grad(quantised_loss)(jnp.array([0.3, -0.8]), jnp.ones(2), jnp.ones(2))
    ```

    ## Fix safety
    No automatic fix: whether to pass the gradient straight through is the author's.

    ## References
    - [JAX: stop_gradient](https://docs.jax.dev/en/latest/_autosummary/jax.lax.stop_gradient.html)
    """

    code = "JAX508"
    mentioned = frozenset({"grad", "jac"})
    name = "gradient-cut-by-rounding"
    message = "A differentiated argument reaches the output only through rounding or an integer cast"
    outcome = "the gradient is zero everywhere, silently"
    severity = "warning"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_Lambda(self, node: ast.Lambda, ctx: Context) -> None:
        self.check(node, ctx)

    def check(self, node: ast.FunctionDef | ast.Lambda, ctx: Context) -> None:
        info = ctx.model.infos.get(node)
        if info is None or not info.reverse_sites or info in ctx.model.custom_derivatives:
            return
        if any(isinstance(n, FUNCTION_NODES) for n in ast.walk(node) if n is not node):
            return  # a closure may carry the argument where this walk does not look
        for transform, site, call, offset in info.reverse_sites:
            returned = _differentiated_outputs(node, call)
            if not returned:
                continue
            for param in sorted(differentiated_params(info, call, offset)):
                cut = _cut(ctx, info, param, returned)
                if cut is not None:
                    ctx.report(
                        cut,
                        f"`{param}` reaches what {_function_name(node)} returns only through `{snippet(ctx, cut)}`, "
                        f"whose derivative is zero: `{transform.removeprefix('jax.')}` (line "
                        f"{getattr(site, 'lineno', '?')}) gives a zero gradient for `{param}` everywhere, "
                        f"silently; pass the gradient straight through "
                        f"(`{param} + jax.lax.stop_gradient(rounded - {param})`) if it is a quantizer",
                    )
                    return


def _function_name(node: ast.FunctionDef | ast.Lambda) -> str:
    return "the lambda" if isinstance(node, ast.Lambda) else f"`{node.name}`"


def _differentiated_outputs(node: ast.FunctionDef | ast.Lambda, call: ast.Call | None) -> list[ast.expr]:
    """What the function returns that is differentiated: each return value (a lambda's body),
    or its first element under ``has_aux=True``; empty where that is not written out."""
    returned = [node.body] if isinstance(node, ast.Lambda) else returned_expressions(node)
    aux = None if call is None else keyword_argument(call, "has_aux")
    if aux is None:
        return returned
    if not (isinstance(aux, ast.Constant) and aux.value is True):
        return []
    firsts = [r.elts[0] for r in returned if isinstance(r, ast.Tuple) and r.elts]
    return firsts if len(firsts) == len(returned) else []


def _cut(ctx: Context, info: FunctionInfo, param: str, returned: list[ast.expr]) -> ast.expr | None:
    """The zero-derivative operation that every path from ``param`` to ``returned`` passes,
    when ``param`` is read and reaches the outputs only through such operations (names bound
    from it followed, flow-insensitively); None otherwise."""
    statements = [n for n in ast.walk(info.node) if isinstance(n, ast.stmt) and n is not info.node]
    if any(isinstance(statement, ast.Expr) and _reads(statement, {param}) for statement in statements):
        return None  # handed to a call for its effect: it may be stored and read elsewhere
    dependent = dependent_names(ctx, info, {param}, _carries)
    if any(_carries(ctx, value, dependent) for value in returned):
        return None
    for candidate in ast.walk(info.node):
        if (
            candidate is not info.node
            and isinstance(candidate, ast.expr)
            and _zero_derivative(ctx, candidate)
            and _reads(candidate, dependent)
        ):
            return candidate
    return None


def _carries(ctx: Context, expr: ast.AST, dependent: set[str]) -> bool:
    """Whether ``expr`` may carry the derivative of ``dependent`` (only certain cuts stop it)."""
    if isinstance(expr, ast.Name):
        return expr.id in dependent
    if _zero_derivative(ctx, expr) or isinstance(expr, ast.Compare):
        return False
    if isinstance(expr, ast.Attribute) and expr.attr in STATIC_ATTRIBUTES:
        return False
    return any(_carries(ctx, child, dependent) for child in ast.iter_child_nodes(expr))


def _zero_derivative(ctx: Context, expr: ast.AST) -> bool:
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.FloorDiv):
        return True
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr == "astype" and len(expr.args) == 1:
        dtype = ast.unparse(expr.args[0]).rsplit(".", 1)[-1].strip("'\"")
        return dtype.startswith(INTEGER_DTYPE_WORDS) or dtype.startswith("uint")
    return ctx.qualname(func) in ZERO_GRADIENT


def _reads(node: ast.AST, names: set[str]) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load) for n in ast.walk(node)
    )

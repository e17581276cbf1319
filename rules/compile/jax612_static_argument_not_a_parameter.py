"""JAX612: ``static_argnames``/``static_argnums`` naming no parameter of the jitted function."""

from __future__ import annotations

import ast
import difflib

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.tracing import int_literals, str_literals
from jaxlint.semantic.transforms import COMPILING_TRANSFORMS, PARTIALS

from ..support.explain import snippet


class StaticArgumentNotAParameter(Rule):
    """## What it does
    Finds `jax.jit` (or `flax.nnx.jit`) given `static_argnames` that the function has no
    parameter of, or `static_argnums` past its positional parameters: a typo
    (`static_argnames=("num_heads",)` on `def split_heads(x, n_heads)`), or a parameter renamed
    since. A function taking `**kwargs` (or `*args`, for positions) accepts any.

    ## Why is this bad?
    `jax.jit` checks the names and positions against the signature when it wraps the function:
    it raises `ValueError` ("Jitted function has invalid argnames {'num_heads'} in
    static_argnames. Function does not take these args.") at the decorator, before any call.

    ## Example
    ```python
    from functools import partial

    import jax

    @partial(jax.jit, static_argnames=("num_heads",))
    def split_heads(x, n_heads):
        b, d = x.shape
        return x.reshape(b, n_heads, d // n_heads)
    ```

    ## Use instead
    ```python
    from functools import partial

    import jax

    @partial(jax.jit, static_argnames=("n_heads",))
    def split_heads(x, n_heads):
        b, d = x.shape
        return x.reshape(b, n_heads, d // n_heads)
    ```

    ## Fix safety
    No automatic fix: the message names the closest parameter when there is one, but which
    parameter was meant is the author's call.

    ## References
    - [jax.jit](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)
    """

    code = "JAX612"
    name = "static-argument-not-a-parameter"
    message = "`static_argnames`/`static_argnums` name no parameter of the jitted function"
    outcome = "ValueError when `jax.jit` wraps the function"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        info = ctx.model.infos.get(node)
        if info is None:
            return
        for site in info.jit_sites:
            call = _jit_call(site)
            if call is not None:
                self.check_names(call, info, ctx)
                self.check_positions(call, info, ctx)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        """``jax.jit(partial(f, a), static_argnums=2)``: the positions count on what the partial
        leaves, not on ``f``'s signature (measured with JAX 0.10.2)."""
        if not node.args or ctx.qualname(node.func) not in COMPILING_TRANSFORMS:
            return
        wrapped = node.args[0]
        if not (isinstance(wrapped, ast.Call) and wrapped.args and ctx.qualname(wrapped.func) in PARTIALS):
            return
        if wrapped.keywords or any(isinstance(a, ast.Starred) for a in wrapped.args):
            return
        found = ctx.model.resolve_function(wrapped.args[0], ctx.scope)
        if found is None or found[1]:
            return
        self.check_positions(node, found[0], ctx, bound=len(wrapped.args) - 1)

    def check_names(self, call: ast.Call, info: FunctionInfo, ctx: Context) -> None:
        argument = keyword_argument(call, "static_argnames")
        names = str_literals(argument)
        args = info.node.args
        if argument is None or not names or args.kwarg is not None:
            return
        accepted = [a.arg for a in (*args.args, *args.kwonlyargs)]
        unknown = sorted(names - set(accepted))
        if not unknown:
            return
        close = difflib.get_close_matches(unknown[0], accepted, n=1)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        ctx.report(
            argument,
            f"`static_argnames` names `{unknown[0]}`, which `{info.name}` has no parameter of "
            f"(it takes {_listed(accepted)}): `{_jit_name(ctx, call)}` raises `ValueError` when "
            f"it wraps the function{hint}",
        )

    def check_positions(self, call: ast.Call, info: FunctionInfo, ctx: Context, bound: int = 0) -> None:
        argument = keyword_argument(call, "static_argnums")
        positions = int_literals(argument)
        args = info.node.args
        if argument is None or not positions or args.vararg is not None:
            return
        count = len(args.posonlyargs) + len(args.args) - bound
        beyond = sorted(p for p in positions if not -count <= p < count)
        if not beyond:
            return
        what = f"`{info.name}`" if not bound else f"the partial of `{info.name}`, with {bound} bound,"
        ctx.report(
            argument,
            f"`static_argnums` names position {beyond[0]}, but {what} takes {count} positional "
            f"argument{'s' if count != 1 else ''}: `{_jit_name(ctx, call)}` raises `ValueError` "
            f"when it wraps the function",
        )


def _jit_call(site: ast.expr) -> ast.Call | None:
    """The call holding the jit's keywords: ``jax.jit(f, static_argnames=...)`` or
    ``partial(jax.jit, static_argnames=...)`` (a bare ``@jax.jit`` has none)."""
    return site if isinstance(site, ast.Call) else None


def _jit_name(ctx: Context, call: ast.Call) -> str:
    """How the jit is written: ``jax.jit``, also under ``partial(jax.jit, ...)``."""
    if ctx.qualname(call.func) in PARTIALS and call.args:
        return snippet(ctx, call.args[0])
    return snippet(ctx, call.func)


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{name}`" for name in names) if names else "no parameters"

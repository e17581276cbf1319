"""JAX627: a flax linen layer whose mode flag neither its constructor nor its call gives."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet


class LinenModeFlagMissing(Rule):
    """## What it does
    Finds a call of a flax linen layer that has a mode flag, `nn.Dropout` (`deterministic`) or
    `nn.BatchNorm` (`use_running_average`), when neither the layer's construction nor the call
    gives the flag: `nn.Dropout(0.1)(x)`, or `self.drop(x)` where `setup` made
    `self.drop = nn.Dropout(0.1)`. Which layers have such a flag is measured with flax.

    ## Why is this bad?
    The layer cannot tell training from evaluation: flax raises `ValueError` ("Parameter
    "deterministic" must be passed to the constructor or at call time") as soon as `init` or
    `apply` runs it. Give the flag at the call, from the module's own training switch
    (`deterministic=not train`, `use_running_average=not train`), or fix it in the constructor.

    ## Example
    ```python
    import flax.linen as nn

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool):
            x = nn.Dense(16)(x)
            return nn.Dropout(0.1)(x)
    ```

    ## Use instead
    ```python
    import flax.linen as nn

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool):
            x = nn.Dense(16)(x)
            return nn.Dropout(0.1)(x, deterministic=not train)
    ```

    ## Fix safety
    No automatic fix: which value the flag takes (and where it comes from) is the author's.

    ## References
    - [flax linen: Dropout](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/layers.html#flax.linen.Dropout)
    - [flax linen: BatchNorm](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/layers.html#flax.linen.BatchNorm)
    """

    code = "JAX627"
    name = "linen-mode-flag-missing"
    message = "A flax linen layer is called without its mode flag (`deterministic`, `use_running_average`)"
    outcome = 'ValueError: Parameter "deterministic" must be passed to the constructor or at call time'
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        flags = measured.linen_mode_flags()
        if not any(ctx.mentions(name.rpartition(".")[2]) for name in flags):
            return
        found = _construction(ctx, node.func)
        if found is None:
            return
        construction, scope = found
        flag = flags.get(ctx.model.qualname(construction.func, scope) or "")
        if flag is None or _gives(construction, flag.parameter, flag.constructor_position):
            return
        if _gives(node, flag.parameter, flag.call_position):
            return
        if construction is node.func:
            what = (
                f"`{snippet(ctx, node)}` gives the `{snippet(ctx, construction.func)}` no "
                f"`{flag.parameter}`, neither when it is built nor when it is called"
            )
        else:
            what = (
                f"`{snippet(ctx, node)}` calls `{snippet(ctx, construction)}` (line "
                f"{construction.lineno}) without `{flag.parameter}`, and it was built without it"
            )
        ctx.report(
            node,
            f'{what}: flax raises `ValueError` (Parameter "{flag.parameter}" must be passed to the '
            f"constructor or at call time) when `init` or `apply` runs it; pass `{flag.parameter}=...` "
            f"at the call, from the module's training switch, or to the constructor",
        )


def _construction(ctx: Context, func: ast.expr) -> tuple[ast.Call, Scope] | None:
    """The layer construction a called expression is: the construction itself
    (``nn.Dropout(0.1)(x)``), a name bound once to one, or ``self.attr`` that ``setup`` (or
    ``__init__``) alone stores one in; with the scope it is written in."""
    if isinstance(func, ast.Call):
        return func, ctx.scope
    if isinstance(func, ast.Name):
        owner = ctx.scope.lookup(func.id)
        value = None if owner is None else owner.single_value(func.id)
        return (value, owner) if isinstance(value, ast.Call) and owner is not None else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        cls = ctx.model.class_of_self(ctx.scope, func.value.id)
        held = None if cls is None else ctx.model.held_value(cls, func.attr)
        if held is None:
            return None
        method, value = held
        scope = ctx.model.index.scopes.get(method, ctx.model.index.module)
        return (value, scope) if isinstance(value, ast.Call) else None
    return None


def _gives(call: ast.Call, parameter: str, position: int) -> bool:
    """Whether ``call`` may pass ``parameter``: by keyword, by position, or unpacked."""
    if any(k.arg in (parameter, None) for k in call.keywords):
        return True
    return len(call.args) > position or any(isinstance(a, ast.Starred) for a in call.args)

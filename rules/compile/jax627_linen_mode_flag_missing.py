"""JAX627: a flax linen layer whose mode flag neither its constructor nor its call gives."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.constructions import called_construction
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
        found = called_construction(ctx, node.func)
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


def _gives(call: ast.Call, parameter: str, position: int) -> bool:
    """Whether ``call`` may pass ``parameter``: by keyword, by position, or unpacked."""
    if any(k.arg in (parameter, None) for k in call.keywords):
        return True
    return len(call.args) > position or any(isinstance(a, ast.Starred) for a in call.args)

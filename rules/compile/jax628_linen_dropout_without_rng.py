"""JAX628: a flax linen module applied in a mode that draws random numbers, with no ``rngs``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.linen_run import UNKNOWN, Frame, applied_module, argument

DRAWING_LAYERS = {"flax.linen.Dropout": "dropout"}  # a layer and the rng stream it draws from


class LinenDropoutWithoutRng(Rule):
    """## What it does
    Finds `module.apply(variables, ...)` without `rngs=` on a flax linen module of this file
    whose `__call__`, run with the arguments given, draws random numbers: an `nn.Dropout`
    with a rate above zero that the arguments make non-deterministic (`train=True` where the
    layer gets `deterministic=not train`), or `self.make_rng(...)`, in the module or in a
    submodule it calls. Only code that always runs counts (not under an `if` or in a loop),
    and only flags the arguments decide.

    ## Why is this bad?
    `apply` has no random keys unless it is given some: flax raises `InvalidRngError`
    ("Dropout_0 needs PRNG for "dropout""). Pass a fresh key for each step,
    `rngs={"dropout": key}`. (`init` falls back on its `params` key and works.)

    ## Example
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(4)(x)
            return nn.Dropout(0.1)(x, deterministic=not train)

    model = Classifier()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.key(0), x)
    y = model.apply(variables, x, train=True)
    ```

    ## Use instead
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(4)(x)
            return nn.Dropout(0.1)(x, deterministic=not train)

    model = Classifier()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.key(0), x)
    y = model.apply(variables, x, train=True, rngs={"dropout": jax.random.key(1)})
    ```

    ## Fix safety
    No automatic fix: the key must be a fresh one on every step, which only the caller has.

    ## References
    - [flax linen: Dropout](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/layers.html#flax.linen.Dropout)
    - [flax: randomness and PRNGs](https://flax-linen.readthedocs.io/en/latest/guides/flax_fundamentals/rng_guide.html)
    """

    code = "JAX628"
    name = "linen-dropout-without-rng"
    message = "A flax linen module that draws random numbers is applied without `rngs`"
    outcome = 'flax.errors.InvalidRngError: Dropout_0 needs PRNG for "dropout"'
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if any(k.arg == "rngs" for k in node.keywords):
            return
        if not (ctx.mentions("Dropout") or ctx.mentions("make_rng")):
            return
        found = applied_module(ctx, node, random_draw)
        if found is None:
            return
        cls, (site, stream) = found
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` gives no `rngs`, but with these arguments `{cls.name}` draws "
            f"from the `{stream}` stream (`{snippet(ctx, site)}`, line {site.lineno}): flax raises "
            f'`InvalidRngError` (`needs PRNG for "{stream}"`); pass `rngs={{"{stream}": key}}`, '
            f"a fresh key each step",
        )


def random_draw(
    frame: Frame, call: ast.Call, construction: ast.Call | None, layer: str | None
) -> tuple[ast.Call, str] | None:
    """``call`` and the stream it draws from: ``self.make_rng(stream)``, or a ``Dropout`` with a
    rate above zero that the frame's values make non-deterministic."""
    if construction is None:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "make_rng" and call.args):
            return None
        if not (isinstance(func.value, ast.Name) and func.value.id == frame.this):
            return None
        stream = frame.evaluate(call.args[0])
        return (call, stream) if isinstance(stream, str) else None
    if layer not in DRAWING_LAYERS:
        return None
    if argument(call, "rng", 2) is not None:
        return None  # `nn.Dropout(0.5)(x, rng=key)`: it draws from the key it is given
    rate = argument(construction, "rate", 0)
    rate_value = UNKNOWN if rate is None else frame.evaluate(rate)
    if frame.mode_flag(call, construction, layer) is not False or rate_value is UNKNOWN or not rate_value:
        return None
    collection = argument(construction, "rng_collection", 3)
    stream = DRAWING_LAYERS[layer] if collection is None else frame.evaluate(collection)
    return (call, stream) if isinstance(stream, str) else None

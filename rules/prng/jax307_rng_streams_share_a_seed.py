"""JAX307: two streams of one ``nnx.Rngs`` given the same seed."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

RNGS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs"})
KEY_MAKERS = frozenset({"jax.random.key", "jax.random.PRNGKey"})


class RngStreamsShareASeed(Rule):
    """## What it does
    Finds an `nnx.Rngs` whose streams are given the same seed: `nnx.Rngs(params=SEED,
    dropout=SEED)`, `nnx.Rngs(0, dropout=0)` (the first is the `default` stream), or the same
    key written twice.

    ## Why is this bad?
    Each stream of `nnx.Rngs` starts from its own seed and counts its own draws, so two streams
    seeded alike hand out the same keys, one for one: the first `params` key is the first
    `dropout` key, and so on (measured with flax 0.12.8). The dropout masks then reuse the random
    bits the weights were initialised from, which JAX's contract for keys forbids.

    ## Example
    ```python
    from flax import nnx

    SEED = 42
    rngs = nnx.Rngs(params=SEED, dropout=SEED)
    ```

    ## Use instead
    ```python
    from flax import nnx

    SEED = 42
    rngs = nnx.Rngs(params=SEED, dropout=SEED + 1)
    ```
    or one stream for all, whose draws never repeat: `nnx.Rngs(SEED)`.

    ## Fix safety
    No automatic fix: a new seed changes every number the stream draws.

    ## References
    - [flax.nnx.Rngs](https://flax.readthedocs.io/en/latest/api_reference/flax.nnx/rnglib.html)
    - [JAX: pseudorandom numbers](https://docs.jax.dev/en/latest/random-numbers.html)
    """

    code = "JAX307"
    mentioned = frozenset({"Rngs"})
    name = "rng-streams-share-a-seed"
    message = "Two streams of one `nnx.Rngs` are given the same seed"
    outcome = "the streams draw identical keys"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) not in RNGS or any(isinstance(a, ast.Starred) for a in node.args):
            return
        streams = [("default", node.args[0])] if node.args else []
        streams += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
        seen: dict[str, str] = {}
        for stream, seed in streams:
            written = _seed_written(ctx, seed)
            if written is None:
                continue
            if written in seen:
                ctx.report(
                    seed,
                    f"streams `{seen[written]}` and `{stream}` of `nnx.Rngs` are both seeded with "
                    f"`{snippet(ctx, seed)}`: they hand out the same keys, one for one (the first "
                    f"`{stream}` key is the first `{seen[written]}` key), so their draws repeat each "
                    f"other's random bits; give `{stream}` its own seed, or use one stream for all "
                    f"(`nnx.Rngs({snippet(ctx, seed)})`)",
                )
                return
            seen[written] = stream


def _seed_written(ctx: Context, seed: ast.expr) -> str | None:
    """How ``seed`` is written, where two alike in one call are the same value: a literal, a
    name, a field path, or a key made from one of these (``jax.random.key(SEED)``)."""
    inner = seed
    if isinstance(seed, ast.Call) and ctx.qualname(seed.func) in KEY_MAKERS and len(seed.args) == 1:
        inner = seed.args[0]
    plain = inner
    while isinstance(plain, ast.Attribute):
        plain = plain.value
    if not isinstance(plain, (ast.Name, ast.Constant)) or isinstance(inner, ast.Subscript):
        return None
    if isinstance(plain, ast.Constant) and not isinstance(plain.value, int):
        return None
    return ast.dump(seed)

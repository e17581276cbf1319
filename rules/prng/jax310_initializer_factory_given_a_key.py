"""JAX310: a ``jax.nn.initializers`` factory called with a PRNG key, as if it were the
initializer it builds."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.explain import snippet
from .keypaths import key_made_by


class InitializerFactoryGivenAKey(Rule):
    """## What it does
    Finds a call of a `jax.nn.initializers` factory (`normal`, `uniform`, `glorot_normal`,
    `he_uniform`, `orthogonal`, `constant`, ...) whose first argument is a PRNG key: the call
    written the way the initializer it builds is called, `init(key, shape)`. Which functions are
    factories is measured by running JAX.

    ## Why is this bad?
    A factory takes its settings (`stddev`, `scale`, `in_axis`...) and returns an initializer.
    Given `(key, shape)`, it takes the key for a setting and silently returns a function, not an
    array (measured with JAX 0.10.2); the mistake surfaces later, where the "weights" are first
    used (`TypeError: unsupported operand type(s) for @: 'ArrayImpl' and 'function'`).

    ## Example
    ```python
    import jax

    key = jax.random.key(0)
    w = jax.nn.initializers.normal(key, (3, 4))
    ```

    ## Use instead
    ```python
    import jax

    key = jax.random.key(0)
    w = jax.nn.initializers.normal(stddev=0.01)(key, (3, 4))
    ```

    ## Fix safety
    No automatic fix: the settings the factory should get are the author's call.

    ## References
    - [jax.nn.initializers](https://docs.jax.dev/en/latest/jax.nn.initializers.html)
    """

    code = "JAX310"
    mentioned = frozenset({"initializers"})
    name = "initializer-factory-given-a-key"
    message = "An initializer factory is called with a PRNG key, as if it were the initializer"
    outcome = "a function where an array was meant; TypeError where it is used"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        qualname = ctx.qualname(node.func)
        if qualname not in measured.initializer_factories() or not node.args:
            return
        made = key_made_by(ctx, node.args[0], ctx.scope)
        if made is None:
            return
        name = qualname.rsplit(".", 1)[1]
        origin = (
            "" if made is node.args[0] else f" (made by `{snippet(ctx, made.func)}` at line {made.lineno})"
        )
        ctx.report(
            node,
            f"`{name}` builds an initializer from its settings: given the key `{snippet(ctx, node.args[0])}`"
            f"{origin} it takes it for a setting and "
            f"returns a function, not an array; build the initializer, then call it: "
            f"`{name}(...)({snippet(ctx, node.args[0])}, shape)`",
        )

"""What a differentiation (``jax.grad`` and its kin) differentiates with respect to."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.semantic.tracing import int_literals
from jaxlint.semantic.values import LayerRef

# differentiations, and the name JAX's error gives them (`hessian` is `jacfwd` of `jacrev`)
DIFFERENTIATIONS = {
    "jax.grad": "grad",
    "jax.value_and_grad": "grad",
    "jax.jacrev": "jacrev",
    "jax.jacfwd": "jacfwd",
    "jax.hessian": "jacfwd",
}


def differentiated_positions(layer: LayerRef) -> tuple[LayerRef, set[int]] | None:
    """The layer and the positions it differentiates with respect to (``argnums_of``); None
    where ``allow_int`` may be set (an integer argument is then accepted)."""
    call = layer.call
    allow = None if call is None else keyword_argument(call, "allow_int")
    if allow is not None and not (isinstance(allow, ast.Constant) and allow.value is False):
        return None
    positions = argnums_of(layer)
    return None if not positions else (layer, positions)


def argnums_of(layer: LayerRef) -> set[int]:
    """The positions of the arguments a differentiation layer differentiates with respect to:
    its ``argnums`` (by keyword, or second), ``{0}`` by default; empty when not literal."""
    call = layer.call
    argnums = None if call is None else keyword_argument(call, "argnums")
    if argnums is None and call is not None and len(call.args) > 1:
        argnums = call.args[1]
    return {0} if argnums is None else int_literals(argnums) or set()

"""JAX109 fix: ``jax.pure_callback(f, shapes, *args)`` -> ``jax.debug.callback(f, *args)``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.purity.jax109_pure_callback_result_unused import DebugCallback

# `pure_callback` keywords that are its own, not the callback's
OWN_KEYWORDS = frozenset({"vmap_method", "result_shape_dtypes", "callback"})


class PureCallbackToDebugCallback(Fixer[DebugCallback]):
    """Unsafe: the callback then runs on every call, as meant, but `jax.debug.callback`'s
    calls may be reordered. The result shapes and `vmap_method` go; the callback's own
    arguments and keywords stay."""

    code = "JAX109"

    def fix(self, request: DebugCallback, site: Site, doc: Document) -> Fix | None:
        call = request.call
        if len(call.args) < 2 or any(isinstance(a, ast.Starred) for a in call.args[:2]):
            raise CannotFix("the callback or its result shapes are not given by position")
        if any(k.arg is None or k.arg in ("result_shape_dtypes", "callback") for k in call.keywords):
            raise CannotFix("keywords that may name the callback")
        arguments = [doc.segment(call.args[0]), *(doc.segment(a) for a in call.args[2:])]
        arguments += [f"{k.arg}={doc.segment(k.value)}" for k in call.keywords if k.arg not in OWN_KEYWORDS]
        jax, edits = doc.reference("jax", site.scope)
        replaced = doc.edit(doc.start(call), doc.end(call), f"{jax}.debug.callback({', '.join(arguments)})")
        return doc.fix(
            Applicability.UNSAFE,
            "Replace with `jax.debug.callback`",
            [replaced, *edits],
        )

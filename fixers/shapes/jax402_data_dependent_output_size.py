"""JAX402 fix: pass ``size=`` with a static upper bound derived from the inputs' sizes; on a
constant, compute with NumPy while tracing (``jnp.asarray(np.unique(c))``); a repeat count made
by ``jnp`` from constants, computed with NumPy (``c = np.arange(4).sum() // 2``)."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import NumpyAtTraceTime
from jaxlint.fixing.rewrites import numpy_at_trace_time

from ...rules.shapes.jax402_data_dependent_output_size import ComputeOnHost, StaticSize


class PassStaticSize(Fixer[StaticSize | ComputeOnHost | NumpyAtTraceTime]):
    """Safe where the request says so (the call failed on every run in sight, and the padding
    meets only a sum or a maximum it leaves alone). Else unsafe: with `size=` the result is padded (with `fill_value`, or the default) up to the
    bound, so code that used its length or its last elements sees the padding. On a constant,
    NumPy computes the exact result while tracing, made a JAX array again with `jnp.asarray`
    (a NumPy value type where `jax.numpy` gives an array of 0-d inputs)."""

    code = "JAX402"

    def fix(
        self, request: StaticSize | ComputeOnHost | NumpyAtTraceTime, site: Site, doc: Document
    ) -> Fix | None:
        if isinstance(request, ComputeOnHost):
            return _compute_on_host(request.call, site, doc)
        if isinstance(request, NumpyAtTraceTime):
            return numpy_at_trace_time(request, site, doc)
        call = site.node
        if not isinstance(call, ast.Call):
            return None
        last = max([*call.args, *call.keywords], key=lambda n: (n.end_lineno, n.end_col_offset))
        offset = doc.end(last)
        fill = f", fill_value={request.fill}" if request.fill else ""
        edit = doc.edit(offset, offset, f", size={request.bound}{fill}")
        applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
        return doc.fix(applicability, "Pass `size=` with a static upper bound", [edit])


def _compute_on_host(call: ast.Call, site: Site, doc: Document) -> Fix | None:
    """``jnp.unique(c)`` -> ``jnp.asarray(np.unique(c))``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name is None:
        return None
    numpy, edits = doc.reference("numpy", site.scope)
    jnp, more = doc.reference("jax.numpy", site.scope)
    arguments = doc.text[doc.end(func) : doc.end(call)]
    text = f"{jnp}.asarray({numpy}.{name}{arguments})"
    edits = [doc.edit(doc.start(call), doc.end(call), text), *edits, *more]
    return doc.fix(Applicability.UNSAFE, "Compute it with NumPy while tracing", edits)

"""JAX403 fix: a fixed-size window at a traced offset becomes ``lax.dynamic_slice_in_dim``;
a prefix met only by a sum is summed through a mask; otherwise a parameter used as a shape, size or slice bound joins ``static_argnames``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import MarkStatic, NumpyAtTraceTime
from jaxlint.fixing.rewrites import mark_static, numpy_at_trace_time

from ...rules.shapes.jax403_traced_shape_argument import DynamicSliceWindow, MaskedPrefix


class ShapeArgumentToStatic(Fixer[DynamicSliceWindow | MaskedPrefix | MarkStatic | NumpyAtTraceTime]):
    """Unsafe: near the end of the array `dynamic_slice_in_dim` shifts the window back to keep its
    size, where slicing would shorten it; a prefix summed through a mask keeps every row for a
    negative stop, which slicing counts from the end; a static argument recompiles for every value and needs
    hashable Python values from every caller; NumPy computes a value made from constants in
    64-bit types where `jax.numpy` computes in 32-bit ones."""

    code = "JAX403"

    def fix(
        self,
        request: DynamicSliceWindow | MaskedPrefix | MarkStatic | NumpyAtTraceTime,
        site: Site,
        doc: Document,
    ) -> Fix | None:
        match request:
            case DynamicSliceWindow(start, size):
                node = site.node
                if not isinstance(node, ast.Subscript):
                    return None
                lax, imports = doc.reference("jax.lax", site.scope)
                text = f"{lax}.dynamic_slice_in_dim({doc.segment(node.value)}, {doc.segment(start)}, {doc.segment(size)})"
                edits = [doc.edit(doc.start(node), doc.end(node), text), *imports]
                return doc.fix(Applicability.UNSAFE, "Take the window with `lax.dynamic_slice_in_dim`", edits)
            case MaskedPrefix(array, stop):
                return _masked_prefix(site, doc, array, stop)
            case NumpyAtTraceTime():
                return numpy_at_trace_time(request, site, doc)
            case MarkStatic():
                return mark_static(doc, site.scope, request)


def _masked_prefix(site: Site, doc: Document, array: ast.expr, stop: ast.expr) -> Fix | None:
    """``x[:n]`` -> ``jnp.where(lax.broadcasted_iota(jnp.int32, x.shape, 0) < n, x, 0)``."""
    node = site.node
    if not isinstance(node, ast.Subscript):
        return None
    jnp, imports = doc.reference("jax.numpy", site.scope)
    lax, more = doc.reference("jax.lax", site.scope)
    x = doc.segment(array)
    shape = (
        f"{x}.shape"
        if isinstance(array, (ast.Name, ast.Attribute, ast.Call, ast.Subscript))
        else f"({x}).shape"
    )
    mask = f"{lax}.broadcasted_iota({jnp}.int32, {shape}, 0) < {doc.segment(stop)}"
    text = f"{jnp}.where({mask}, {x}, 0)"
    edits = [doc.edit(doc.start(node), doc.end(node), text), *imports, *more]
    return doc.fix(Applicability.UNSAFE, "Sum the prefix through a mask of static shape", edits)

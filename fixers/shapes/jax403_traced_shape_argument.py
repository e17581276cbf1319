"""JAX403 fix: a fixed-size window at a traced offset becomes ``lax.dynamic_slice_in_dim``;
otherwise a parameter used as a shape, size or slice bound joins ``static_argnames``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import MarkStatic, NumpyAtTraceTime
from jaxlint.fixing.rewrites import mark_static, numpy_at_trace_time

from ...rules.shapes.jax403_traced_shape_argument import DynamicSliceWindow


class ShapeArgumentToStatic(Fixer[DynamicSliceWindow | MarkStatic | NumpyAtTraceTime]):
    """Unsafe: near the end of the array `dynamic_slice_in_dim` shifts the window back to keep its
    size, where slicing would shorten it; a static argument recompiles for every value and needs
    hashable Python values from every caller; NumPy computes a value made from constants in
    64-bit types where `jax.numpy` computes in 32-bit ones."""

    code = "JAX403"

    def fix(
        self, request: DynamicSliceWindow | MarkStatic | NumpyAtTraceTime, site: Site, doc: Document
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
            case NumpyAtTraceTime():
                return numpy_at_trace_time(request, site, doc)
            case MarkStatic():
                return mark_static(doc, site.scope, request)

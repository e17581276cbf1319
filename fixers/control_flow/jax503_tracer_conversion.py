"""JAX503 fix: ``max(a, b)`` -> ``jnp.maximum(a, b)``, ``a and b`` -> ``jnp.logical_and(a, b)``,
``not a`` -> ``jnp.logical_not(a)`` (more operands fold left); ``if bool(x):`` -> ``if x:``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.control_flow.jax503_tracer_conversion import ConversionFix, ElementwiseFunction, UnwrapBool


class ConversionRewrite(Fixer[ConversionFix]):
    """`max`/`min`/`and`/`or`/`not` to their elementwise `jnp` forms: unsafe, `jnp.maximum`
    propagates NaN where `max` keeps its first argument, and `a or b` gave one of its operands
    where `jnp.logical_or` gives a boolean array. `if bool(x):` to `if x:`: safe, a condition
    calls `bool` on its value anyway."""

    code = "JAX503"

    def fix(self, request: ConversionFix, site: Site, doc: Document) -> Fix | None:
        node = site.node
        if node is None:
            raise CannotFix("nothing to rewrite")
        match request:
            case UnwrapBool(operand):
                code = doc.text[doc.start(operand) : doc.end(operand)]
                if isinstance(operand, (ast.IfExp, ast.Lambda, ast.NamedExpr)):
                    code = f"({code})"
                edit = doc.edit(doc.start(node), doc.end(node), code)
                return doc.fix(Applicability.SAFE, "Drop the `bool()` a condition calls anyway", [edit])
            case ElementwiseFunction(name, operands):
                jnp, imports = doc.reference("jax.numpy", site.scope)
                codes = [doc.text[doc.start(operand) : doc.end(operand)] for operand in operands]
                code = f"{jnp}.{name}({codes[0]})" if len(codes) == 1 else codes[0]
                for operand in codes[1:]:
                    code = f"{jnp}.{name}({code}, {operand})"
                edits = [doc.edit(doc.start(node), doc.end(node), code), *imports]
                return doc.fix(Applicability.UNSAFE, f"Use `jnp.{name}`", edits)

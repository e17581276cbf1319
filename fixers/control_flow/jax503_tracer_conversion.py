"""JAX503 fix: ``max(a, b)`` -> ``jnp.maximum(a, b)``, ``a and b`` -> ``jnp.logical_and(a, b)``,
``not a`` -> ``jnp.logical_not(a)`` (more operands fold left); ``if bool(x):`` -> ``if x:``;
``int(x)`` -> ``x.astype(int)``, ``x.item()`` -> ``x.reshape(())``, ``np.asarray(x)`` ->
``jnp.asarray(x)``; ``x in {3, 7}`` -> ``jnp.isin(x, jnp.array([3, 7]))``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer
from jaxlint.fixing.plans import JaxNumpyFunction, NumpyAtTraceTime
from jaxlint.fixing.rewrites import jax_numpy_namesake, numpy_at_trace_time

from ...rules.control_flow.jax503_tracer_conversion import (
    AsDtype,
    ConversionFix,
    ElementwiseFunction,
    IsIn,
    SingleElement,
    UnwrapBool,
)

# Operands that need no parentheses before `.astype(...)` / `.reshape(...)`.
ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)


class ConversionRewrite(Fixer[ConversionFix]):
    """`max`/`min`/`and`/`or`/`not` to their elementwise `jnp` forms: safe where the request
    says so (it failed on every run in sight); else unsafe, `jnp.maximum` propagates NaN where
    `max` keeps its first argument, and `a or b` gave one of its operands where
    `jnp.logical_or` gives a boolean array. `if bool(x):` to `if x:`: safe, a condition
    calls `bool` on its value anyway. `int(x)`/`x.item()` to arrays: unsafe, a Python scalar is
    weakly typed and a 0-d array is not. NumPy conversions to `jax.numpy`: as JAX602's fix.
    `x in {3, 7}` to `jnp.isin`: safe, the lookup raised on every run (nothing hashes a JAX
    array); an `if` on the result is JAX501's to rewrite next."""

    code = "JAX503"

    def fix(self, request: ConversionFix, site: Site, doc: Document) -> Fix | None:
        node = site.node
        if node is None:
            raise CannotFix("nothing to rewrite")
        match request:
            case UnwrapBool(operand, condition):
                code = doc.text[doc.start(operand) : doc.end(operand)]
                whole_value = getattr(site.statement, "value", None) is node  # `y = bool(a < b)`
                if isinstance(operand, (ast.IfExp, ast.Lambda, ast.NamedExpr)) or not (
                    condition or whole_value
                ):
                    code = f"({code})"
                edit = doc.edit(doc.start(node), doc.end(node), code)
                if condition:
                    return doc.fix(Applicability.SAFE, "Drop the `bool()` a condition calls anyway", [edit])
                return doc.fix(Applicability.UNSAFE, "Keep the comparison's boolean array", [edit])
            case AsDtype(operand, dtype):
                code = f"{_operand(doc, operand)}.astype({dtype})"
                edit = doc.edit(doc.start(node), doc.end(node), code)
                return doc.fix(Applicability.UNSAFE, f"Keep the array: `.astype({dtype})`", [edit])
            case SingleElement(operand):
                code = f"{_operand(doc, operand)}.reshape(())"
                edit = doc.edit(doc.start(node), doc.end(node), code)
                return doc.fix(Applicability.UNSAFE, "Keep the single element as a 0-d array", [edit])
            case JaxNumpyFunction():
                return jax_numpy_namesake(request, site, doc)
            case NumpyAtTraceTime():
                return numpy_at_trace_time(request, site, doc)
            case IsIn(item, collection, negated):
                jnp, imports = doc.reference("jax.numpy", site.scope)
                values = doc.text[doc.start(collection) : doc.end(collection)]
                listed = f"[{values[1:-1]}]" if isinstance(collection, ast.Set) else f"sorted({values})"
                code = f"{jnp}.isin({_operand(doc, item)}, {jnp}.array({listed}))"
                edit = doc.edit(doc.start(node), doc.end(node), f"~{code}" if negated else code)
                return doc.fix(Applicability.SAFE, "Use `jnp.isin`", [edit, *imports])
            case ElementwiseFunction(name, operands):
                jnp, imports = doc.reference("jax.numpy", site.scope)
                codes = [doc.text[doc.start(operand) : doc.end(operand)] for operand in operands]
                code = f"{jnp}.{name}({codes[0]})" if len(codes) == 1 else codes[0]
                for operand in codes[1:]:
                    code = f"{jnp}.{name}({code}, {operand})"
                edits = [doc.edit(doc.start(node), doc.end(node), code), *imports]
                applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
                return doc.fix(applicability, f"Use `jnp.{name}`", edits)


def _operand(doc: Document, operand: ast.expr) -> str:
    code = doc.text[doc.start(operand) : doc.end(operand)]
    return code if isinstance(operand, ATOMS) else f"({code})"

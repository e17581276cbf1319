"""JAX602 fix: ``np.exp(x)`` on a tracer -> ``jnp.exp(x)``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.compile.jax602_numpy_function_on_tracer import JaxNumpyFunction


class NumpyToJaxNumpy(Fixer[JaxNumpyFunction]):
    """Safe in a function that only ever runs traced (the call raised before); unsafe where the
    same function may also run eagerly on NumPy data, which would now get JAX arrays back."""

    code = "JAX602"

    def fix(self, request: JaxNumpyFunction, site: Site, doc: Document) -> Fix | None:
        node = site.node
        if not isinstance(node, ast.Call):
            return None
        jnp, imports = doc.reference("jax.numpy", site.scope)
        func = node.func
        edits = [doc.edit(doc.start(func), doc.end(func), f"{jnp}.{request.name}"), *imports]
        applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
        return doc.fix(applicability, f"Use `jnp.{request.name}`", edits)

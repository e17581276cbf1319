"""JAX602 fix: ``np.exp(x)`` on a tracer -> ``jnp.exp(x)``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import JaxNumpyFunction
from jaxlint.fixing.rewrites import jax_numpy_namesake


class NumpyToJaxNumpy(Fixer[JaxNumpyFunction]):
    """Safe in a function that only ever runs traced (the call raised before); unsafe where the
    same function may also run eagerly on NumPy data, which would now get JAX arrays back."""

    code = "JAX602"

    def fix(self, request: JaxNumpyFunction, site: Site, doc: Document) -> Fix | None:
        return jax_numpy_namesake(request, site, doc)

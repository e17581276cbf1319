"""jaxlint's runtime companion: run code eagerly and compiled and prove that the results match.

The only part of jaxlint that imports jax (it needs ``jax`` installed: ``pip install jax``, or ``pip install '.[runtime]'`` in a checkout). Names are loaded
on first use, so ``import jaxlint_runtime`` (and the pytest plugin) stay cheap until needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jaxlint_runtime.fixes import FixVerdict, changed_functions, verify_fix
    from jaxlint_runtime.inputs import Inputs, synthesise
    from jaxlint_runtime.report import Finding, LeafMismatch, Report, Timings
    from jaxlint_runtime.verification import Options, compare, verify

_EXPORTS = {
    "verify": "jaxlint_runtime.verification",
    "compare": "jaxlint_runtime.verification",
    "Options": "jaxlint_runtime.verification",
    "verify_fix": "jaxlint_runtime.fixes",
    "FixVerdict": "jaxlint_runtime.fixes",
    "changed_functions": "jaxlint_runtime.fixes",
    "Inputs": "jaxlint_runtime.inputs",
    "synthesise": "jaxlint_runtime.inputs",
    "Report": "jaxlint_runtime.report",
    "Finding": "jaxlint_runtime.report",
    "LeafMismatch": "jaxlint_runtime.report",
    "Timings": "jaxlint_runtime.report",
}

__all__ = [
    "Finding",
    "FixVerdict",
    "Inputs",
    "LeafMismatch",
    "Options",
    "Report",
    "Timings",
    "changed_functions",
    "compare",
    "synthesise",
    "verify",
    "verify_fix",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'jaxlint_runtime' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

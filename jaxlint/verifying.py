"""``check --fix --verify``: keep a fix only once the function it changed is proven to compute
the same thing, the original run eagerly against the fixed version compiled (by
``jaxlint_runtime``, in subprocesses, on inputs synthesised from annotations).

A function whose fix is not proven (a mismatch, a failure, no inputs to run it with) keeps its
original code: the file is fixed again without it, and the functions still fixed are verified
again, since they may call the one left alone. This module imports neither jax nor user code.
"""

from __future__ import annotations

from collections.abc import Callable

from jaxlint.astutil import MODULE_CODE
from jaxlint.fixing import FixResult

VERIFY_TIMEOUT_S = 300.0

Refix = Callable[[frozenset[str]], FixResult]  # fix the file again, keeping these definitions


class VerifyUnavailable(Exception):
    """JAX is not installed, so nothing can be verified."""


def require_runtime() -> None:
    """Raise ``VerifyUnavailable`` with the install hint when JAX cannot be imported."""
    from jaxlint_runtime.cli import INSTALL_HINT, jax_available

    if not jax_available():
        raise VerifyUnavailable(INSTALL_HINT.replace("`jaxlint verify`", "`--verify`"))


def verified_fix(
    path: str, result: FixResult, refix: Refix, timeout: float = VERIFY_TIMEOUT_S
) -> tuple[FixResult, list[str]]:
    """The fix of ``path`` reduced to the functions it is proven for, and one line per function
    left unfixed saying why."""
    kept: set[str] = set()
    problems: list[str] = []
    while result.changed:
        refused = _refusals(path, result, timeout)
        if not refused:
            break
        problems.extend(f"{path}: `{name}` not fixed: {reason}" for name, reason in refused.items())
        kept.update(refused)
        result = refix(frozenset(kept))
    return result, problems


def _refusals(path: str, result: FixResult, timeout: float) -> dict[str, str]:
    """Why each changed definition of the fixed text is not proven (empty: all are)."""
    from jaxlint_runtime.fixes import function_codes, verify_fix

    before, after = function_codes(result.source), function_codes(result.fixed)
    refused: dict[str, str] = {}
    if before.get(MODULE_CODE) != after.get(MODULE_CODE):
        refused[MODULE_CODE] = "the fix changes module-level code, which cannot be run on its own"
    changed = [name for name, code in after.items() if name in before and before[name] != code]
    changed = [name for name in changed if name != MODULE_CODE]
    for verdict in verify_fix(result.source, result.fixed, path, changed, inputs={}, timeout=timeout):
        if verdict.status != "verified":
            refused[verdict.function] = f"verification {verdict.status}: {verdict.reason}"
    return refused

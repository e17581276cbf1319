"""``check --fix --verify``: run every function a fix changed, the original eagerly against the
fixed version compiled (by ``jaxlint_runtime``, in subprocesses, on inputs synthesised from
annotations), and take back the fixes that change results. A fix meant to change results (a
discarded update applied, keys split) is held against the fixed function run eagerly instead.

A function whose fixed version gives other results or fails keeps its original code: the file is
fixed again without it, and the functions still fixed are verified again, since they may call the
one left alone. A function that cannot be run (no inputs can be built for it) keeps its fix and is
reported unverified. This module imports neither jax nor user code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from jaxlint.engine.astutil import MODULE_CODE
from jaxlint.fixing.applier import FixResult

VERIFY_TIMEOUT_S = 300.0
# Fixes meant to change what the code computes: a discarded `.at[]` update now applied, keys split
# so draws differ, a data-dependent size made static (padded). The original's eager result is the
# bug, not the reference: the fixed function compiled is held against itself run eagerly.
INTENDED_CHANGES = frozenset({"JAX203", "JAX301", "JAX302", "JAX303", "JAX402"})

Refix = Callable[[frozenset[str]], FixResult]  # fix the file again, keeping these definitions


class VerifyUnavailable(Exception):
    """JAX is not installed, so nothing can be verified."""


def require_runtime() -> None:
    """Raise ``VerifyUnavailable`` with the install hint when JAX cannot be imported."""
    from jaxlint_runtime.cli import INSTALL_HINT, jax_available

    if not jax_available():
        raise VerifyUnavailable(INSTALL_HINT.replace("`jaxlint verify`", "`--verify`"))


def verified_fix(
    path: str,
    result: FixResult,
    refix: Refix,
    timeout: float = VERIFY_TIMEOUT_S,
    tally: Counter[str] | None = None,
) -> tuple[FixResult, list[str]]:
    """The fix of ``path`` without the functions whose fixed version misbehaves, and one line
    per function taken back or left unverified; ``tally`` counts functions ``verified``,
    ``taken back`` and ``unverified``."""
    kept: set[str] = set()
    problems: list[str] = []
    tally = Counter() if tally is None else tally
    while result.changed:
        refused, unverified, verified = _verdicts(path, result, timeout)
        if not refused:
            problems.extend(f"{path}: `{name}` fixed, unverified: {why}" for name, why in unverified.items())
            tally["verified"] += len(verified)
            tally["unverified"] += len(unverified)
            break
        problems.extend(f"{path}: `{name}` not fixed: {why}" for name, why in refused.items())
        tally["taken back"] += len(refused)
        kept.update(refused)
        result = refix(frozenset(kept))
    return result, problems


def _verdicts(
    path: str, result: FixResult, timeout: float
) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """The changed definitions whose fix misbehaves, those that could not be run (with why), and
    those verified."""
    from jaxlint_runtime.fixes import function_codes, verify_fix

    before, after = function_codes(result.source), function_codes(result.fixed)
    refused: dict[str, str] = {}
    unverified: dict[str, str] = {}
    if before.get(MODULE_CODE) != after.get(MODULE_CODE):
        unverified[MODULE_CODE] = "module-level code cannot be run on its own"
    changed = [name for name, code in after.items() if name in before and before[name] != code]
    changed = [name for name in changed if name != MODULE_CODE]
    intended = [name for name in changed if result.fixed_in.get(name, set()) & INTENDED_CHANGES]
    preserving = [name for name in changed if name not in intended]
    verdicts = verify_fix(result.source, result.fixed, path, preserving, inputs={}, timeout=timeout)
    if intended:
        options = {"reference": "fixed"}
        verdicts += verify_fix(
            result.source, result.fixed, path, intended, {}, timeout=timeout, options=options
        )
    verified: list[str] = []
    for verdict in verdicts:
        if verdict.rollback:
            refused[verdict.function] = f"verification {verdict.status}: {verdict.reason}"
        elif verdict.status != "verified":
            unverified[verdict.function] = verdict.reason
        else:
            verified.append(verdict.function)
    return refused, unverified, verified

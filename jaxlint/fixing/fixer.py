"""The fixer base class, fixer discovery, and asking the fixers for the fixes of some findings.

A fixer is one class in one ``jaxNNN_*`` module of ``jaxlint.fixers``, paired with its rule by
``code``. It declares the fix request it takes as its type parameter (``class
ItemAssignmentToAtSet(Fixer[AtSetRequest])``): pyright then checks the fixer against the
dataclass the rule fills in, and :func:`compute_fix` refuses a request of another type.
"""

from __future__ import annotations

import ast
import warnings
from functools import cache
from types import UnionType
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar, get_args, get_origin

from jaxlint.engine.astutil import room_to_recurse, run_deeply
from jaxlint.engine.diagnostics import Diagnostic, Fix, FixRequest, Site
from jaxlint.engine.linter import internal_error
from jaxlint.engine.registry import discover

if TYPE_CHECKING:
    from jaxlint.fixing.document import Document
    from jaxlint.semantic.model import SemanticModel

FIXERS_PACKAGE = "jaxlint.fixers"

RequestT = TypeVar("RequestT", bound=FixRequest)


class CannotFix(Exception):
    """Raised by a fixer that finds it cannot rewrite this occurrence correctly."""


class Fixer(Generic[RequestT]):
    """Base class of fixers. Subclasses set ``code`` and implement :meth:`fix`; their docstring
    says what they rewrite and why that is safe or unsafe."""

    code: ClassVar[str]

    def fix(self, request: RequestT, site: Site, doc: Document) -> Fix | None:
        """The fix for one finding at ``site``, or None (or :class:`CannotFix`) when there is none."""
        raise NotImplementedError

    @classmethod
    def request_types(cls) -> tuple[type[FixRequest], ...]:
        """The fix requests this fixer takes: the type argument of its ``Fixer[...]`` base (a
        union names several)."""
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is Fixer:
                (argument,) = get_args(base)
                types = get_args(argument) if isinstance(argument, UnionType) else (argument,)
                if all(isinstance(t, type) and issubclass(t, FixRequest) for t in types):
                    return types
        raise TypeError(f"{cls.__name__} must subclass Fixer[<the FixRequest type(s) it takes>]")


@cache
def fixers() -> dict[str, Fixer[FixRequest]]:
    """Every fixer by the code of the rule it fixes (discovered, never listed)."""
    found: dict[str, Fixer[FixRequest]] = {}
    for fixer_class in discover(FIXERS_PACKAGE, Fixer):
        if fixer_class.code in found:
            raise RuntimeError(f"two fixers for {fixer_class.code}")
        found[fixer_class.code] = fixer_class()
    return found


def attach_fixes(diagnostics: list[Diagnostic], source: str, model: SemanticModel | None) -> list[Diagnostic]:
    """Fill in ``diagnostic.fix`` for the findings a fixer can rewrite (for JSON, LSP, --diff).
    A fixer that crashes costs only its fix: the JAX002 diagnostics that say so are returned."""
    from jaxlint.fixing.document import Document

    available = fixers()
    wanted = [d for d in diagnostics if d.code in available and d.site is not None and d.request is not None]
    if not wanted or model is None:
        return []
    doc = Document(source, model)
    errors = []
    for diagnostic in wanted:
        try:
            diagnostic.fix = _fix_with_room(available[diagnostic.code], diagnostic, doc)
        except Exception as error:  # a bug in a fixer must not cost the file its findings
            where = f"the {diagnostic.code} fixer"
            consequence = "the finding is left unfixed"
            node = diagnostic.site.node if diagnostic.site else None
            errors.append(internal_error(diagnostic.filename, where, error, node, consequence))
    return errors


def _fix_with_room(fixer: Fixer[FixRequest], diagnostic: Diagnostic, doc: Document) -> Fix | None:
    """``compute_fix``, again on a thread with room to recurse where the code is too deep (with
    room already, ``compute_fix`` gives up on such code itself); straight there for a statement
    too large for libcst's recursion on this thread (a 500-term ``or`` chain)."""
    statement = diagnostic.site.statement if diagnostic.site is not None else None
    if statement is not None and _larger_than(statement, DEEP_STATEMENT_NODES):
        return run_deeply(lambda: compute_fix(fixer, diagnostic, doc))
    try:
        return compute_fix(fixer, diagnostic, doc)
    except RecursionError:
        return run_deeply(lambda: compute_fix(fixer, diagnostic, doc))


# Measured: libcst rewrites a 300-term chain (2,406 nodes) on the main thread, not a 500-term one.
DEEP_STATEMENT_NODES = 3_000


def _larger_than(node: ast.AST, limit: int) -> bool:
    """Whether ``node`` has more than ``limit`` nodes (counting stops there)."""
    return any(count >= limit for count, _ in enumerate(ast.walk(node)))


def compute_fix(fixer: Fixer[FixRequest], diagnostic: Diagnostic, doc: Document) -> Fix | None:
    """``fixer``'s fix for ``diagnostic`` (None when it has none); a request of another type than
    the fixer takes is a bug in the rule or the fixer, and raises ``TypeError``."""
    request, site = diagnostic.request, diagnostic.site
    if request is None or site is None:
        return None
    expected = fixer.request_types()
    if not isinstance(request, expected):
        names = " | ".join(t.__name__ for t in expected)
        raise TypeError(f"{type(fixer).__name__} takes {names}, got {type(request).__name__}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fixer.fix(request, site, doc)
    except CannotFix:
        return None
    except Exception as error:
        if not _ran_out_of_stack(error):
            raise
        if not room_to_recurse():
            raise RecursionError("the code is too deep to rewrite here") from error
        return None


def _ran_out_of_stack(error: BaseException) -> bool:
    """A ``RecursionError``, also where libcst's clean-up turned it into another error."""
    seen: BaseException | None = error
    for _ in range(20):
        if seen is None:
            return False
        if isinstance(seen, RecursionError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False

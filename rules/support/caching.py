"""Functions cached by ``functools``: the cache hashes every argument of each call."""

from __future__ import annotations

import ast

from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.scopes import Scope

CACHES = frozenset({"functools.lru_cache", "functools.cache"})


def cache_decorator(model: SemanticModel, function: ast.AST, scope: Scope) -> str | None:
    """The ``functools`` cache ``function`` (written in ``scope``) is decorated with, called or
    not (``@lru_cache(maxsize=None)``, ``@functools.cache``): ``"lru_cache"`` or ``"cache"``."""
    for decorator in getattr(function, "decorator_list", []):
        callee = decorator.func if isinstance(decorator, ast.Call) else decorator
        qualname = model.qualname(callee, scope)
        if qualname in CACHES:
            return qualname.removeprefix("functools.")
    return None

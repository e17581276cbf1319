"""JAX301 fix: split the key before its first use, which takes the subkey; the reuse then
consumes the fresh key."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.carry import ThreadCarriedKey
from ...rules.prng.copies import SplitCopies
from ...rules.prng.jax301_prng_key_reuse import SplitBeforeFirstUse, SplitForBoth
from .keysplit import (
    argument_written,
    line_before,
    split_before,
    split_copies_fix,
    split_spelling,
    statement_holding,
    thread_carried_key,
    use_subkey,
)


class SplitReusedKey(Fixer[SplitBeforeFirstUse | SplitForBoth | ThreadCarriedKey | SplitCopies]):
    """Unsafe by nature: both draws change (they now use distinct keys, which is the point)."""

    code = "JAX301"

    def fix(
        self,
        request: SplitBeforeFirstUse | SplitForBoth | ThreadCarriedKey | SplitCopies,
        site: Site,
        doc: Document,
    ) -> Fix | None:
        if isinstance(request, ThreadCarriedKey):
            return thread_carried_key(doc, site, request)
        if isinstance(request, SplitCopies):  # `keys = [key] * 2`: the copies become a split
            return split_copies_fix(doc, site, request)
        key, first = request.key, request.first
        statement = statement_holding(site.scope.function.node, first)
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            raise CannotFix("the first use is in a definition")
        if isinstance(request, SplitForBoth):
            return self._split_into_fresh_names(doc, site, request, statement)
        if request.fresh_after:
            return self._subkey_for_each(doc, site, key, first, statement)
        subkey = doc.fresh_name("subkey", site.scope)
        edits = [
            *split_before(doc, statement, key, subkey, site.scope, like=first),
            use_subkey(doc, first, key, subkey),
        ]
        return doc.fix(Applicability.UNSAFE, f"Split `{key}` before its first use", edits, site.scope)

    def _subkey_for_each(
        self, doc: Document, site: Site, key: str, first: ast.Call, statement: ast.stmt
    ) -> Fix:
        """Each draw from a subkey of its own, split off ``key`` right before it: ``key`` stays
        fresh for what reads it later (a ``return key``, the next iteration)."""
        reuse = site.node
        if not isinstance(reuse, ast.Call):
            raise CannotFix("the reuse is not a call")
        later = statement_holding(site.scope.function.node, reuse)
        subkey, other = doc.fresh_names("subkey", site.scope, 2)
        if later is statement:
            split, imports = split_spelling(doc, site.scope, first)
            line = f"{key}, {subkey}, {other} = {split}({key}, 3)"
            edits = [line_before(doc, statement, line), *imports]
        else:
            edits = [
                *split_before(doc, statement, key, subkey, site.scope, like=first),
                *split_before(doc, later, key, other, site.scope, like=first),
            ]
        edits += [use_subkey(doc, first, key, subkey), use_subkey(doc, reuse, key, other)]
        return doc.fix(Applicability.UNSAFE, f"Split `{key}` before each use", edits, site.scope)

    def _split_into_fresh_names(
        self, doc: Document, site: Site, request: SplitForBoth, statement: ast.stmt
    ) -> Fix:
        """``k1, k2 = split(<key>)`` before the first draw, which takes ``k1``; the reuse ``k2``.
        In a ``fori_loop`` body, ``split(fold_in(<key>, i))``: a key of its own for each step."""
        key, first, index = request.key, request.first, request.fold_index
        reuse = site.node
        if not isinstance(reuse, ast.Call):
            raise CannotFix("the reuse is not a call")
        first_key, second_key = doc.fresh_names("key", site.scope, 2)
        split, imports = split_spelling(doc, site.scope, first)
        written = argument_written(first, key)
        source = doc.text[doc.start(written) : doc.end(written)]  # as the user spells it
        if index is not None:
            fold_in, more = split_spelling(doc, site.scope, first, "fold_in")
            source, imports = f"{fold_in}({source}, {index})", [*imports, *more]
        edits = [line_before(doc, statement, f"{first_key}, {second_key} = {split}({source})"), *imports]
        edits += [use_subkey(doc, first, key, first_key), use_subkey(doc, reuse, key, second_key)]
        return doc.fix(Applicability.UNSAFE, f"Split `{key}` into two keys", edits, site.scope)

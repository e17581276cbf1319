"""Fix machinery: turning a finding's typed fix request into text edits, safely.

- :mod:`~jaxlint.fixing.fixer`: the :class:`~jaxlint.fixing.fixer.Fixer` base class, fixer
  discovery (every ``jaxlint.fixers`` module; paired with its rule by code) and ``attach_fixes``.
- :mod:`~jaxlint.fixing.document`: the source being fixed, one statement at a time parsed with
  libcst (:class:`~jaxlint.fixing.document.Snippet`), and how to spell and import a name.
- :mod:`~jaxlint.fixing.applier`: fixing to a fixed point, never to a syntax error.
- :mod:`~jaxlint.fixing.plans` and :mod:`~jaxlint.fixing.rewrites`: the lifting plans rules
  hand over (``jnp.where``, ``lax.cond``, ``while_loop``, ``fori_loop``) and the rewrites several
  fixers share (``static_argnames``, NaN-safe ``where``, a block lifted into functions).
- :mod:`~jaxlint.fixing.verify_fixes`: ``check --fix --verify``, the bridge to ``jaxlint_runtime``.

libcst is imported only when a fix is actually computed.
"""

"""The engine: parse a file once, build its semantic model, run every enabled rule in one pass.

- :mod:`~jaxlint.engine.linter`: ``lint_source``/``analyze``, the one entry point of every host;
  :class:`~jaxlint.engine.linter.RuleSet`, the node-type -> callbacks tables.
- :mod:`~jaxlint.engine.rule` and :mod:`~jaxlint.engine.registry`: the rule base class and rule
  discovery (every ``jaxlint.rules`` module is imported; no central list).
- :mod:`~jaxlint.engine.context`: what a rule sees while it checks a node, and ``report``.
- :mod:`~jaxlint.engine.diagnostics`: findings, fixes, edits and the typed rule -> fixer contract.
- :mod:`~jaxlint.engine.noqa`, :mod:`~jaxlint.engine.syntax`, :mod:`~jaxlint.engine.astutil`:
  suppression comments, syntax errors, node positions.
- :mod:`~jaxlint.engine.incremental`: the editor's re-parse of only what an edit touched.
"""

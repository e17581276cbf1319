"""Fixers (installed as ``jaxlint.fixers``): one libcst rewrite per fixable rule, in the same
family folder and with the same file name as the rule, paired with it by ``code``.

A fixer receives the typed fix request its rule built (a frozen dataclass defined next to the
rule, imported relatively: ``from ...rules.mutation.jax201_array_item_assignment import
AtSetRequest``) and does syntax only; it never re-runs the analysis. Helpers one family of
fixers shares live in that family's folder (``prng/keysplit.py``); rewrites several families
share live in :mod:`jaxlint.fixing.rewrites`.
"""

"""Fixers: libcst rewrites paired with rules by code (installed as ``jaxlint.fixers``)."""

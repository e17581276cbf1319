"""Fixers of the purity rules (see jaxlint.rules.purity)."""

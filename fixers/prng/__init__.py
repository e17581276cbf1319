"""Fixers of the prng rules (see jaxlint.rules.prng)."""

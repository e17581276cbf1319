"""Fixers of the mutation rules (see jaxlint.rules.mutation)."""

"""Fixers of the control_flow rules (see jaxlint.rules.control_flow)."""

"""jaxlint's rules, one per module (installed as ``jaxlint.rules``; discovered, never listed)."""

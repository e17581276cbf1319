"""jaxlint: find JAX tracing hazards statically, and rewrite them to jit-compatible code."""

__version__ = "0.1.0"

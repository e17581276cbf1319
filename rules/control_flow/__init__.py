"""JAX5xx: Python control flow and conversions on tracers (``if``, ``while``, ``range()``, ``int()``,
``bool()``, ``assert``), and the helpers only they use (``conditions``)."""

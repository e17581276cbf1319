"""JAX2xx: in-place mutation of JAX arrays (``x[i] = v``, ``x[i] += v``, a discarded ``.at[]``)."""

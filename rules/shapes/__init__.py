"""JAX4xx: shapes that depend on data: boolean masks, ``nonzero``/``unique`` without ``size=``, traced
values where JAX needs a concrete shape, size or bound."""

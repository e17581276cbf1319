"""JAX1xx: purity. Python side effects and outside state in traced code: print, I/O, globals,
outer-state writes, Python randomness and clocks, ``next()``."""

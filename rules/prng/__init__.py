"""JAX3xx: PRNG keys consumed twice, reused on every loop iteration, or re-created from a constant
seed in a loop."""

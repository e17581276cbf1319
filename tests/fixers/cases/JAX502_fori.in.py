# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def power_iterate(m, v, num_iters):
    for _ in range(num_iters):
        v = m @ v
        v = v / jnp.linalg.norm(v)
    return v


@jax.jit
def two_carries(x, n):
    total = 0.0
    count = 0
    for i in range(1, n):
        total = total + x * i
        count = count + 1
    return total, count


@jax.jit
def uses_index_after(x, n):
    for i in range(n):
        x = x + 1
    return x, i

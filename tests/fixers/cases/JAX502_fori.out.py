# fix: unsafe
import jax
import jax.numpy as jnp
import functools


@jax.jit
def power_iterate(m, v, num_iters):
    def body_fun(_, v):
        v = m @ v
        v = v / jnp.linalg.norm(v)
        return v
    v = jax.lax.fori_loop(0, num_iters, body_fun, v)
    return v


@jax.jit
def two_carries(x, n):
    total = 0.0
    count = 0
    def body_fun(i, carry):
        total, count = carry
        total = total + x * i
        count = count + 1
        return total, count
    total, count = jax.lax.fori_loop(1, n, body_fun, (total, count))
    return total, count


@functools.partial(jax.jit, static_argnames=("n",))
def uses_index_after(x, n):
    for i in range(n):
        x = x + 1
    return x, i

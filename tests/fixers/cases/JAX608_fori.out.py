# fix: unsafe
import jax
import jax.numpy as jnp

STEPS = 500


@jax.jit
def decay(x):
    def body_fun(_, x):  # decay steps
        x = x * 0.999 + 0.001
        return x
    x = jax.lax.fori_loop(0, 1000, body_fun, x)
    return x


@jax.jit
def two_carries(x):
    xs = jnp.asarray(x)
    total = jnp.zeros_like(x)
    count = 0.0
    def body_fun(i, carry):
        total, count = carry
        total = total + xs[i % 4] * i
        count = count + 1.0
        return total, count
    total, count = jax.lax.fori_loop(10, 10 + STEPS, body_fun, (total, count))
    return total / count


@jax.jit
def scatter(x: jax.Array):
    def body_fun(i, x):
        x = x.at[i].add(1.0)
        return x
    x = jax.lax.fori_loop(0, 300, body_fun, x)
    return x


@jax.jit
def python_list_index(x, weights):
    table = [1.0, 2.0] * 100
    for i in range(200):  # no fix
        x = x * table[i]
    return x


@jax.jit
def branches_on_index(x):
    for i in range(200):  # no fix
        if i % 2:
            x = x + 1.0
    return x


def layer(x):
    return x * 2.0


@jax.jit
def calls_a_helper(x):
    for _ in range(100):  # no fix
        x = layer(x)
    return x


@jax.jit
def nested(x):
    def body_fun(i, x):
        def body_fun_2(_, x):
            x = x * 0.5
            return x
        x = jax.lax.fori_loop(0, 1000, body_fun_2, x)
        return x
    x = jax.lax.fori_loop(0, 500, body_fun, x)
    return x

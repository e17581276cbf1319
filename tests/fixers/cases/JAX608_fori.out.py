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


@jax.jit
def counted_while(x):
    t = 0
    def body_fun(t, x):
        x = x * 0.999 + 0.001
        return x
    x = jax.lax.fori_loop(t, 2000, body_fun, x)
    return x


@jax.jit
def counted_while_inclusive(x, w: jax.Array):
    t = 0
    def body_fun(t, x):
        x = x + w[t]
        return x
    x = jax.lax.fori_loop(t, 199 + 1, body_fun, x)
    return x


@jax.jit
def counter_read_after(x):
    t = 0
    while t < 500:  # no fix: the loop leaves t at 500, fori_loop would not
        x = x * 0.5
        t += 1
    return x, t


@jax.jit
def counter_stepping_by_two(x):
    t = 0
    while t < 500:  # no fix: fori_loop steps by one
        x = x * 0.5
        t += 2
    return x


@jax.jit
def counted_while_by_assignment(x):
    t = 0
    def body_fun(t, x):
        x = x * 0.5 + 1.0
        return x
    x = jax.lax.fori_loop(t, 300, body_fun, x)
    return x


@jax.jit
def comments_stay_with_their_lines(x):
    t = 0
    # the counter's step goes, its comment stays
    def body_fun(t, x):  # integrate
        x = x * 0.99 + 0.01  # decay
        return x
    x = jax.lax.fori_loop(t, 400, body_fun, x)
    def body_fun_2(i, x):  # relax
        x = x * 0.5 + 0.5  # halve
        return x
    x = jax.lax.fori_loop(0, 300, body_fun_2, x)
    return x

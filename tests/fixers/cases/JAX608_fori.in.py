# fix: unsafe
import jax
import jax.numpy as jnp

STEPS = 500


@jax.jit
def decay(x):
    for _ in range(1000):  # decay steps
        x = x * 0.999 + 0.001
    return x


@jax.jit
def two_carries(x):
    xs = jnp.asarray(x)
    total = jnp.zeros_like(x)
    count = 0.0
    for i in range(10, 10 + STEPS):
        total = total + xs[i % 4] * i
        count = count + 1.0
    return total / count


@jax.jit
def scatter(x: jax.Array):
    for i in range(300):
        x = x.at[i].add(1.0)
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
    for i in range(500):
        for _ in range(1000):
            x = x * 0.5
    return x


@jax.jit
def counted_while(x):
    t = 0
    while t < 2000:
        x = x * 0.999 + 0.001
        t += 1
    return x


@jax.jit
def counted_while_inclusive(x, w: jax.Array):
    t = 0
    while t <= 199:
        x = x + w[t]
        t += 1
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
    while t < 300:
        x = x * 0.5 + 1.0
        t = t + 1
    return x


@jax.jit
def comments_stay_with_their_lines(x):
    t = 0
    while t < 400:  # integrate
        x = x * 0.99 + 0.01  # decay
        t += 1  # the counter's step goes, its comment stays
    for i in range(300):  # relax
        x = x * 0.5 + 0.5  # halve
    return x

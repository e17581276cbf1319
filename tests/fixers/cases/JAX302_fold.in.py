# fix: unsafe
import jax
import jax.numpy as jnp
from jax import lax

KEY = jax.random.key(0)


@jax.jit
def global_key_in_loop(x):
    for i in range(3):
        x = x + jax.random.normal(KEY, x.shape)  # no fix: every call would fold the same i into KEY
    return x


def closed_over(key):
    @jax.jit
    def inner(xs):
        out = []
        for i, x in enumerate(xs):
            out.append(x + jax.random.uniform(key, ()))  # no fix: the closure's key, every call
        return out

    return inner


@jax.jit
def item_of_a_batch(keys, x):
    for step in range(4):
        x = x * jax.random.normal(keys[0], x.shape)  # read once before the loop: a slice each step consumes keys
    return x


@jax.jit
def no_index(keys, xs):
    total = 0.0
    for x in xs:
        total = total + x * jax.random.normal(keys[0], ())  # no fix
    return total


def folded_with_constants(i, state):
    key, total = state
    y = 0.0
    for j in range(3):
        y = y + jax.random.normal(jax.random.fold_in(key, j), (3,)).sum()
    return key, total + y


def run_folds(key):
    return lax.fori_loop(0, 3, folded_with_constants, (key, 0.0))


@jax.jit
def item_rebound_in_loop(keys, x):
    for step in range(4):
        x = x * jax.random.normal(keys[0], x.shape)  # no fix: keys changes
        keys = keys[1:]
    return x


@jax.jit
def closed_over_by_a_helper_called_once(key):
    def inner():
        y = jnp.zeros(4)
        for i in range(3):
            y = y + jax.random.normal(key, (4,))
        return y

    return inner()


@jax.jit
def helper_called_twice(key):
    def inner():
        y = jnp.zeros(4)
        for i in range(3):
            y = y + jax.random.normal(key, (4,))  # no fix: the second call would fold the same i
        return y

    return inner() + inner()


@jax.jit
def helper_called_in_a_loop(key):
    def inner():
        y = jnp.zeros(4)
        for i in range(3):
            y = y + jax.random.normal(key, (4,))  # no fix: every iteration folds the same i
        return y

    return sum(inner() for _ in range(2))


class Normalizer:
    def __init__(self, xs):
        y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(xs[0], (4,)), jnp.zeros(4))
        self.out = y


@jax.jit
def item_closed_over_by_a_fori_body(batch):
    def body(i, acc):
        return acc + jax.random.normal(batch["key"], (4,))

    return lax.fori_loop(0, 3, body, jnp.zeros(4))

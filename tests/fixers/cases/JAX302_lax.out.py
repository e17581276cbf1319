# fix: unsafe
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def scan_carry(key):
    def draw(k, _):
        k, subkey = jax.random.split(k)
        return k, jax.random.normal(subkey, (4,))

    _, ys = lax.scan(draw, key, None, length=3)
    return ys.sum(axis=0)


@jax.jit
def fori_closure(key):
    y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(jax.random.fold_in(key, i), (4,)), jnp.zeros(4))
    return y


@jax.jit
def fori_carry(key):
    def body(i, carry):
        k, acc = carry
        k, subkey = jax.random.split(k)
        acc = acc + jax.random.uniform(subkey, (4,))
        return k, acc

    _, y = lax.fori_loop(0, 3, body, (key, jnp.zeros(4)))
    return y


@jax.jit
def scan_closure(key, xs):
    def body(c, x):
        return c + x * jax.random.normal(key, ()), None  # no fix: no step index

    return lax.scan(body, 0.0, xs)[0]


@jax.jit
def while_carry(key):
    def body(carry):
        k, i, acc = carry
        k, subkey = jax.random.split(k)
        return k, i + 1, acc + jax.random.normal(subkey, (4,))

    return lax.while_loop(lambda c: c[1] < 3, body, (key, 0, jnp.zeros(4)))[2]


@jax.jit
def fori_closure_twice(key):
    def body(i, acc):
        key_2, key_3 = jax.random.split(jax.random.fold_in(key, i))
        return acc + jax.random.normal(key_2, (4,)) * jax.random.uniform(key_3, (4,))  # two draws: one split of fold_in(key, i)

    return lax.fori_loop(0, 3, body, jnp.zeros(4))


@jax.jit
def carried_but_not_handed_back(key):
    def draw(carry, _):
        k, total = carry
        return (carry[0], total + jax.random.normal(k, ())), None  # no fix

    return lax.scan(draw, (key, 0.0), None, length=3)[0][1]

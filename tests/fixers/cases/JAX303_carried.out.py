# fix: unsafe
import jax
import jax.numpy as jnp
from jax import lax


def scan_body(key, _):
    key, key0 = jax.random.split(key)  # the body carries `key` and only hands it back: split it
    y = jnp.zeros(4)
    for _ in range(3):
        key0, subkey = jax.random.split(key0)
        y = y + jax.random.normal(subkey, (4,))
    return key, y


def inline_draw(carry, x):
    rng, total = carry
    rng, subkey = jax.random.split(rng)
    noise = jax.random.normal(subkey, (2,))
    return (rng, total + noise * x), noise


def reads_its_key(key, _):
    fixed = jax.random.key(1)  # no fix: the body draws from its own key too
    key, subkey = jax.random.split(key)
    return key, jax.random.normal(fixed, (2,)) + jax.random.uniform(subkey, (2,))


def carries_a_count(n, _):
    y = jax.random.normal(jax.random.key(3), (2,))  # no fix: `n` is not a key
    return n, y


def hands_back_another(key, _):
    other = jax.random.key(7)  # no fix: the body hands back a key of its own, not its carry
    y = jax.random.normal(jax.random.key(5), (2,))  # no fix: the carry is not handed back
    return other, y


@jax.jit
def run(key):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    _, a = lax.scan(scan_body, k1, None, length=3)
    _, b = lax.scan(inline_draw, (k2, jnp.zeros(2)), jnp.arange(3.0))
    _, c = lax.scan(reads_its_key, k3, None, length=3)
    _, d = lax.scan(carries_a_count, 1, None, length=3)
    _, e = lax.scan(hands_back_another, k4, None, length=3)
    return a, b, c, d, e

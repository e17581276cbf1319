# fix: unsafe
import jax
import jax.numpy as jnp
import functools


class Grid:
    def __init__(self):
        self.scale = 2.0
        self.step = jax.jit(self.points, static_argnames=("n",))

    def points(self, n):
        return jnp.linspace(0.0, 1.0, n) * self.scale


class Padder:
    def pad(self, x, n):
        return jnp.concatenate([x, jnp.zeros(n)])


padder = Padder()
pad = jax.jit(padder.pad, static_argnames=("n",))


class Ones:
    def build(self, n):
        return jnp.ones(n)


ones = Ones()


@functools.partial(jax.jit, static_argnames=("n",))
def doubled(x, n):
    return ones.build(n) * 2 + x


class Shared:
    def make(self, n):
        return jnp.ones(n)  # no fix: `make` is called from two jitted functions


shared = Shared()


@jax.jit
def first(x, n):
    return shared.make(n) + x


@jax.jit
def second(x, m):
    return shared.make(m) * x


class Counted:
    def pad(self, x, n):
        return jnp.concatenate([x, jnp.zeros(n)])  # no fix: `static_argnums` count without `self`


counted = Counted()
pad_counted = jax.jit(counted.pad, static_argnums=(0,))

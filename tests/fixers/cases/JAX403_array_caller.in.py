# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def nested(x, n):
    def inner():
        return jnp.zeros(n) + x  # no fix: a caller below passes an array for `n`

    return inner()


def helper(x, n):
    return jnp.zeros(n) + x  # no fix: a caller below passes an array for `n`


@jax.jit
def chained(x, n):
    return helper(x, n)


@jax.jit
def direct(x, n):
    return jnp.zeros(n) + x  # no fix: a caller below passes an array for `n`


@jax.jit
def ints(x, n):
    return jnp.zeros(n) + x


sizes = jnp.array([2, 3])
nested_out = nested(1.0, sizes[0])
chained_out = chained(1.0, sizes[0])
direct_out = direct(1.0, n=jnp.int32(2))
ints_out = ints(1.0, 3)


class Maker:
    def __init__(self):
        self.make = jax.jit(self.build)

    def build(self, x, shape):
        return x + jnp.zeros(shape)  # no fix: a caller below passes a list, which no static argument takes


maker = Maker()
made = maker.make(1.0, [2, 3])

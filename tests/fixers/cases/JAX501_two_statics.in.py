# fix: unsafe
import jax
import jax.numpy as jnp


class Pad:
    def __init__(self):
        self.run = jax.jit(self.pad)

    def buf(self, n):
        return jnp.zeros(n)

    def pad(self, x, n, mirror):
        z = self.buf(n)
        if mirror:
            return jnp.concatenate([x[::-1], z])
        return jnp.concatenate([x, z])


def pad(x, n, mirror):
    z = jnp.zeros(n)
    if mirror:
        return jnp.concatenate([x[::-1], z])
    return jnp.concatenate([x, z])


run = jax.jit(pad)

# fix: safe
import jax.numpy as jnp


def reset_first(x):
    x = x.at[0].set(0.0)  # reset
    return x


class Buffer:
    def __init__(self):
        self.data = jnp.zeros(3)

    def bump(self, i):
        self.data = self.data.at[i].add(1.0)


def first_of(rows):
    rows[0].at[1].set(2.0)  # no fix
    return rows

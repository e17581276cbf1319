# `operator.setitem(x, i, v)` is `x[i] = v` (measured with JAX 0.10.2: TypeError on a JAX array).
import operator

import jax
import jax.numpy as jnp


def mark(grid, i, j):
    operator.setitem(grid, (i, j), 1.0)  # error: JAX201
    return grid


@jax.jit
def zero_first(x):
    operator.setitem(x, 0, 0.0)  # error: JAX201
    return x


# near misses


def mark_list(cells, i):
    operator.setitem(cells, i, 1.0)
    return cells


def mark_dict(table, key):
    operator.setitem(table, key, 1.0)
    return table


if __name__ == "__main__":
    for call in (lambda: mark(jnp.zeros((2, 2)), 0, 1), lambda: zero_first(jnp.ones(3))):
        try:
            call()
        except TypeError:
            pass
        else:
            raise AssertionError("expected TypeError")
    assert mark_list([0.0, 0.0], 1) == [0.0, 1.0]
    assert mark_dict({}, "a") == {"a": 1.0}
    print("ok")

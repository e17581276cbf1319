# An item stored through tuple unpacking (`perm[i], perm[j] = perm[j], perm[i]`) is an item
# assignment too: on a JAX array it raises `TypeError` (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
import numpy as np


def swap(perm, i, j):
    perm[i], perm[j] = perm[j], perm[i]  # error: JAX201
    return perm


@jax.jit
def reorder(x):
    x[0], x[-1] = x[-1], x[0]  # error: JAX201
    return x


# near misses


def swap_numpy(perm, i, j):
    perm[i], perm[j] = perm[j], perm[i]
    return perm


def swap_list(items):
    items[0], items[1] = items[1], items[0]
    return items


def swapped(x):
    return x.at[jnp.array([0, 1])].set(x[jnp.array([1, 0])])


if __name__ == "__main__":
    print(swap_numpy(np.arange(3), 0, 2), swap_list([1, 2]), swapped(jnp.arange(3)))
    for failing in (lambda: swap(jnp.arange(5), 1, 2), lambda: reorder(jnp.arange(3.0))):
        try:
            failing()
        except TypeError as error:
            assert "immutable" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print("ok")

# A NumPy method that writes into its array raises on the read-only view `np.asarray` gives of a
# JAX array's buffer (measured with JAX 0.10.2 and NumPy 2.4: `sort`, `fill`, `put`,
# `partition`; `setflags(write=True)` raises too).
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def score(w, x):
    return x @ w


W, X = jnp.array([0.5, -1.0, 2.0]), jnp.ones((6, 3))


def top_score():
    ranked = np.asarray(score(W, X))
    ranked.sort()  # error: JAX208
    return ranked[-1]


def writable():
    view = np.asarray(score(W, X))
    view.setflags(write=True)  # error: JAX208
    return view


# near misses


def top_score_copy():
    ranked = np.array(score(W, X))
    ranked.sort()  # a writable copy
    return ranked[-1]


def sorted_view():
    return np.sort(np.asarray(score(W, X)))  # a new array


def read_only():
    view = np.asarray(score(W, X))
    view.setflags(write=False)  # already so
    return view


def raises(thunk):
    try:
        thunk()
    except ValueError:
        return True
    return False


if __name__ == "__main__":
    assert raises(lambda: top_score())
    assert raises(lambda: writable())
    top_score_copy()
    sorted_view()
    read_only()
    print("ok")

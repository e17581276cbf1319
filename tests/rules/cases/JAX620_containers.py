# An array put into a list (or a dict) before it is donated is deleted with it: reading the
# list's entries afterwards raises (`Array has been deleted`, or `Buffer has been deleted or
# donated` in a computation), measured with JAX 0.10.2. A copy, or only the list's length, is fine.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd(params, g):
    return params - 0.1 * g


def train(steps):
    params = jnp.ones(4)
    history = []
    for _ in range(steps):
        history.append(params)
        params = sgd(params, jnp.ones(4))
    return jnp.stack(history)  # error: JAX620


def train_snapshots(steps):
    params = jnp.ones(4)
    snapshots = {}
    for step in range(steps):
        snapshots[step] = params
        params = sgd(params, jnp.ones(4))
    return snapshots[0] + 1  # error: JAX620


# near misses


def train_copies(steps):
    params = jnp.ones(4)
    history = []
    for _ in range(steps):
        history.append(jnp.copy(params))
        params = sgd(params, jnp.ones(4))
    return jnp.stack(history)


def count_steps(steps):
    params = jnp.ones(4)
    history = []
    for _ in range(steps):
        history.append(params)
        params = sgd(params, jnp.ones(4))
    return len(history)


if __name__ == "__main__":
    print(train_copies(3).shape, count_steps(3))
    for failing in (lambda: train(3), lambda: train_snapshots(3)):
        try:
            failing()
        except (RuntimeError, ValueError) as error:
            assert "deleted" in str(error)
        else:
            raise AssertionError("expected a deleted-array error")
    print("ok")

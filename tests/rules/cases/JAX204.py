# These calls change nothing: they return a new value, and as statements that value is lost
# while the code goes on with the old one (measured with JAX 0.10.2: the parameters stay, the
# gradient is not clipped, the key is not split).
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def sgd(params, grads):
    updates = jax.tree_util.tree_map(lambda g: -0.1 * g, grads)
    optax.apply_updates(params, updates)  # error: JAX204
    return params


@jax.jit
def clipped_update(w, g):
    g.clip(-1.0, 1.0)  # error: JAX204
    return w - g


def noisy_epochs(key):
    draws = []
    for _ in range(3):
        jax.random.split(key)  # error: JAX204, JAX302
        draws.append(jax.random.uniform(key))  # error: JAX301
    return draws


@jax.jit
def train_step(state, grads):
    state.apply_gradients(grads=grads)  # error: JAX204
    return state


def descend(params, grads, steps):
    for _ in range(steps):
        jax.tree.map(lambda p, g: p - 0.1 * jnp.sign(g), params, grads)  # error: JAX204
    return params


def largest(x):
    x.sort()  # error: JAX204
    return x[-1]


@jax.jit
def append_row(cache, row, pos):
    jax.lax.dynamic_update_slice(cache, row[None, :], (pos, 0))  # error: JAX204
    return cache


@jax.jit
def add_counts(counts, index):
    dims = jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    jax.lax.scatter_add(counts, index[:, None], jnp.ones(index.shape[0]), dims)  # error: JAX204
    return counts


# --- near misses ---


@jax.jit
def appended_row(cache, row, pos):
    cache = jax.lax.dynamic_update_slice(cache, row[None, :], (pos, 0))
    return cache


def largest_sorted(x):
    return jnp.sort(x)[-1]


def sort_a_list(items):
    items.sort()  # a list (no call in sight passes a JAX array)
    return items[-1]



@jax.jit
def applied(state, grads):
    state = state.apply_gradients(grads=grads)
    return state


def kept(params, grads, key):
    params = optax.apply_updates(params, grads)
    key, subkey = jax.random.split(key)
    return params, jax.random.uniform(subkey)


def warm_up(x):
    jnp.dot(x, x)  # computes something else: made to see that it runs
    try:
        jnp.pad(x, 1, mode="unknown")  # called for the error it raises
    except NotImplementedError:
        pass
    return x


def finished(out):
    jax.tree_util.tree_map(lambda x: x.block_until_ready(), out)  # waits: an effect of its own
    jax.tree.map(print, out)
    return out


def test_pad_runs():
    x = jnp.ones(3)
    jnp.pad(x, 1)  # a test's smoke call
    assert x.shape == (3,)


if __name__ == "__main__":
    params = {"w": jnp.ones(2)}
    assert jnp.allclose(sgd(params, params)["w"], 1.0)
    assert jnp.allclose(clipped_update(jnp.zeros(3), jnp.full(3, 5.0)), -5.0)
    assert len({float(d) for d in noisy_epochs(jax.random.key(0))}) == 1
    print(kept(params, params, jax.random.key(1)), warm_up(jnp.ones(2)), test_pad_runs())
    state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))
    assert int(train_step(state, params).step) == 0  # the update was lost
    assert not append_row(jnp.zeros((2, 2)), jnp.ones(2), 0).any()
    assert not add_counts(jnp.zeros(3), jnp.array([0, 2])).any()
    assert appended_row(jnp.zeros((2, 2)), jnp.ones(2), 0).sum() == 2
    assert int(applied(state, params).step) == 1
    assert jnp.allclose(descend(params, params, 3)["w"], 1.0)  # the parameters never moved
    print(finished(params))
    assert float(largest(jnp.array([3.0, 1.0, 2.0]))) == 2.0  # unsorted: the last element
    assert float(largest_sorted(jnp.array([3.0, 1.0, 2.0]))) == 3.0

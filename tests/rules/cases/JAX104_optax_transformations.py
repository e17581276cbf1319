# The update function of a hand-written `optax.GradientTransformation` runs inside the optimizer's
# `update`: under `jit`, once per compilation, not on each step (measured with JAX 0.10.2 and
# optax 0.2.8). Run eagerly, it counts every step.
import jax
import jax.numpy as jnp
import optax

STATS = {"updates": 0}
JITTED_STATS = {"updates": 0}
EAGER_STATS = {"updates": 0}


def count_updates():
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        STATS["updates"] += 1  # error: JAX104
        return updates, state

    return optax.GradientTransformation(init_fn, update_fn)


tx = optax.chain(count_updates(), optax.sgd(0.1))


@jax.jit
def step(params, opt_state):
    grads = jax.grad(lambda p: jnp.sum(p**2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def init_counted(params):
    return optax.EmptyState()


def update_counted(updates, state, params=None):
    JITTED_STATS["updates"] += 1  # error: JAX104
    return updates, state


counted_tx = optax.GradientTransformation(init_counted, update_counted)
counted_update = jax.jit(counted_tx.update)  # the optimizer's update compiled on its own


# near misses


def eager_init(params):
    return optax.EmptyState()


def eager_update(updates, state, params=None):
    EAGER_STATS["updates"] += 1
    return updates, state


eager_tx = optax.GradientTransformation(eager_init, eager_update)


def eager_step(params, opt_state):
    grads = jax.grad(lambda p: jnp.sum(p**2))(params)
    updates, opt_state = eager_tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


if __name__ == "__main__":
    params = jnp.ones(3)
    opt_state, eager_state = tx.init(params), eager_tx.init(params)
    eager_params = params
    for _ in range(5):
        params, opt_state = step(params, opt_state)
        eager_params, eager_state = eager_step(eager_params, eager_state)
    counted_state = counted_tx.init(params)
    for _ in range(5):
        counted_update(params, counted_state)
    assert STATS["updates"] == 1 and EAGER_STATS["updates"] == 5 and JITTED_STATS["updates"] == 1
    print(STATS, EAGER_STATS)

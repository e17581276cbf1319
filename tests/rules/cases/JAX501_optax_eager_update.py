"""Near miss of the optax schedules: an optimizer whose `update` only ever runs eagerly calls
its schedule with a concrete step count, so Python control flow there works.
"""

import jax.numpy as jnp
import optax


def warmup(step):
    if step < 100:  # ok: `update` runs eagerly below, the count is concrete
        return 1e-3 * step / 100
    return 1e-3


optimizer = optax.sgd(warmup)


def train(params, grads):
    opt_state = optimizer.init(params)
    for _ in range(3):
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
    return params


def main():
    return train({"w": jnp.ones(2)}, {"w": jnp.ones(2)})

"""Near misses of the optax schedules: an optimizer whose `update` only ever runs eagerly calls
its schedule with a concrete step count, so Python control flow there works, even where a
jitted function updates another optimizer, or calls `update` on a dict.
"""

import functools

import jax
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


critic_opt = optax.adam(1e-3)


@jax.jit
def critic_step(params, grads, state):
    metrics = {}
    metrics.update(loss=jnp.sum(grads["w"]))
    updates, state = critic_opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state, metrics


def main():
    params = {"w": jnp.ones(2)}
    critic_step(params, params, critic_opt.init(params))
    return train(params, {"w": jnp.ones(2)})


class Finetuner:
    def __init__(self):
        self.tx = optax.sgd(warmup)  # updated eagerly below

    def update(self, params, grads, state):
        return self.tx.update(grads, state, params)


class Pretrainer:
    def __init__(self):
        self.tx = optax.adam(1e-3)

    @functools.partial(jax.jit, static_argnums=0)
    def _update(self, params, grads, state):
        return self.tx.update(grads, state, params)  # another optimizer named `tx`

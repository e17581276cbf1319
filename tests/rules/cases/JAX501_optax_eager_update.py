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


if __name__ == "__main__":
    trained = main()
    # three eager steps at rates 0, 1e-5, 2e-5: the schedule ran with concrete counts
    assert jnp.allclose(trained["w"], 1.0 - 3e-5)
    params = {"w": jnp.ones(2)}
    finetuner = Finetuner()
    state = finetuner.tx.init(params)
    updates, state = finetuner.update(params, params, state)
    assert jnp.array_equal(updates["w"], jnp.zeros(2))  # step 0: rate 0
    pretrainer = Pretrainer()
    updates, _ = pretrainer._update(params, params, pretrainer.tx.init(params))
    assert updates["w"].shape == (2,)
    print("ok")

# `opt.update` returns the new optimizer state: thrown away while the same `state` is updated
# again, a stateful optax optimizer never advances (Adam's step count stays 0). Nothing raises
# (measured with optax beside JAX 0.10.2).
import jax
import jax.numpy as jnp
import optax

params = {"w": jnp.zeros(2)}
adam = optax.adam(0.1)
sgd = optax.sgd(0.1)


def loss(p):
    return jnp.sum((p["w"] - 3.0) ** 2)


def loop(params, steps):
    state = adam.init(params)
    for _ in range(steps):
        updates, _ = adam.update(jax.grad(loss)(params), state)  # error: JAX206
        params = optax.apply_updates(params, updates)
    return params, state


@jax.jit
def step(params, opt_state):
    updates, _ = adam.update(jax.grad(loss)(params), opt_state, params)  # error: JAX206
    return optax.apply_updates(params, updates), opt_state


def named_but_unread(params, steps):
    state = adam.init(params)
    for _ in range(steps):
        updates, new_state = adam.update(jax.grad(loss)(params), state)  # error: JAX206
        params = optax.apply_updates(params, updates)
    return params


def keyword_state(params, state):
    updates, _ = adam.update(jax.grad(loss)(params), state=state)  # error: JAX206
    return optax.apply_updates(params, updates)


chained = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(0.1))
chained_state = chained.init(params)
for _ in range(2):
    chained_updates, _ = chained.update(jax.grad(loss)(params), chained_state, params)  # error: JAX206
    params = optax.apply_updates(params, chained_updates)


# near misses


def kept(params, steps):
    state = adam.init(params)
    for _ in range(steps):
        updates, state = adam.update(jax.grad(loss)(params), state)
        params = optax.apply_updates(params, updates)
    return params, state


def stateless(params, steps):
    state = sgd.init(params)
    for _ in range(steps):
        updates, _ = sgd.update(jax.grad(loss)(params), state)
        params = optax.apply_updates(params, updates)
    return params


def once(params):
    state = adam.init(params)
    updates, _ = adam.update(jax.grad(loss)(params), state)
    return optax.apply_updates(params, updates)


def rebound_elsewhere(params, state, steps):
    for _ in range(steps):
        updates, _ = adam.update(jax.grad(loss)(params), state)
        params = optax.apply_updates(params, updates)
        state = adam.init(params)
    return params


if __name__ == "__main__":
    _, state = loop(params, 3)
    assert int(state[0].count) == 0
    _, opt_state = step(params, adam.init(params))
    assert int(opt_state[0].count) == 0
    _, state = kept(params, 3)
    assert int(state[0].count) == 3
    stateless(params, 2), once(params), keyword_state(params, adam.init(params)), rebound_elsewhere(params, adam.init(params), 2)
    print("as labelled")

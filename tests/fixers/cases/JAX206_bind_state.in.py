# fix: unsafe
import jax
import jax.numpy as jnp
import optax

adam = optax.adam(0.1)


def loss(p):
    return jnp.sum((p["w"] - 3.0) ** 2)


def train(params, steps):
    state = adam.init(params)
    for _ in range(steps):
        updates, _ = adam.update(jax.grad(loss)(params), state)
        params = optax.apply_updates(params, updates)
    return params, state


@jax.jit
def step(params, opt_state):
    updates, _ = adam.update(jax.grad(loss)(params), opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def no_state_back(params, state):
    updates, _ = adam.update(jax.grad(loss)(params), state)  # no fix
    return optax.apply_updates(params, updates)

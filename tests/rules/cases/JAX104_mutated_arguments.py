# A jitted function that changes a dict or list it was passed, and never hands it back: `jax.jit`
# flattens its arguments and rebuilds them from tracers, so the function changes a copy and the
# caller's container keeps its old values (measured with JAX 0.10.2; eagerly it would change).
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


@jax.jit
def sgd_update(params, grads):
    for k in params:
        params[k] = params[k] - 0.1 * grads[k]  # error: JAX104


@partial(jax.jit, static_argnames=("scale",))
def record(history, x, scale):
    history.append(x * scale)  # error: JAX104
    return x


def sgd_rebound(params, grads):
    for k in params:
        params[k] = params[k] - 0.1 * grads[k]  # error: JAX104


sgd_rebound = jax.jit(sgd_rebound)


@eqx.filter_jit
def sgd_filtered(params, grads):
    for k in params:
        params[k] = params[k] - 0.1 * grads[k]  # error: JAX104


class Trainer:
    def step(self, params, grads):
        for k in params:
            params[k] = params[k] - 0.1 * grads[k]  # error: JAX104


@jax.jit
def update_weights(state, grad):
    state["w"] = state["w"] - 0.1 * grad  # error: JAX104 (only an item is handed back)
    return state["w"]


@jax.jit
def sgd_returned(params, grads):
    for k in params:
        params[k] = params[k] - 0.1 * grads[k]  # handed back: the caller rebinds it
    return params


@jax.jit
def sgd_copied(params, grads):
    params = dict(params)  # a copy of its own
    for k in params:
        params[k] = params[k] - 0.1 * grads[k]
    return params


@jax.jit
def merge(config, extra):
    config.update(extra)  # `.update` is an optimizer's method as often as a dict's: left alone
    return extra


def accumulate(totals, x):
    totals["sum"] = totals["sum"] + x  # a helper: the dict is the jitted caller's own


@jax.jit
def total(x):
    totals = {"sum": jnp.zeros(())}
    accumulate(totals, x)
    return totals["sum"]


def eager_update(params, grads):
    for k in params:
        params[k] = params[k] - 0.1 * grads[k]  # not traced: the caller's dict changes


if __name__ == "__main__":
    params = {"w": jnp.ones(2)}
    grads = {"w": jnp.ones(2)}
    sgd_update(params, grads)
    sgd_rebound(params, grads)
    sgd_filtered(params, grads)
    jax.jit(Trainer().step)(params, grads)
    update_weights(params, grads["w"])
    assert jnp.allclose(params["w"], 1.0)  # unchanged
    history = []
    record(history, jnp.ones(2), 2.0)
    assert history == []
    params = sgd_returned(params, grads)
    params = sgd_copied(params, grads)
    print(total(jnp.ones(())))
    eager_update(params, grads)
    assert jnp.allclose(params["w"], 0.7)

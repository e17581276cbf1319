"""A learning-rate schedule handed to optax runs inside the optimizer's `update`, with the step
count: a tracer wherever that `update` is compiled (netket#908).

Near misses: a schedule of `jnp` operations, a library schedule, a constant rate.
"""

import math

import jax
import jax.numpy as jnp
import numpy as np
import optax

WARMUP = 100


def warmup_then_decay(step):
    if step < WARMUP:  # error: JAX501
        return 1e-3 * step / WARMUP
    return 1e-3


def cosine(step):
    return 1e-3 * (1 + np.cos(math.pi * step / 1000)) / 2  # error: JAX602


def smooth(step):
    return 1e-3 * jnp.minimum(1.0, step / WARMUP)  # ok: traced arithmetic


optimizers = {
    "warmup": optax.adam(warmup_then_decay),
    "cosine": optax.sgd(learning_rate=cosine),
    "smooth": optax.adamw(smooth, weight_decay=1e-4),
    "library": optax.adam(optax.exponential_decay(1e-3, 100, 0.9)),
    "constant": optax.adam(1e-3),
}


@jax.jit
def train_step(params, grads, opt_state, which=0):
    optimizer = optimizers["warmup"]
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state

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


warmup_opt = optax.adam(warmup_then_decay)
cosine_opt = optax.sgd(learning_rate=cosine)
smooth_opt = optax.adamw(smooth, weight_decay=1e-4)
library_opt = optax.adam(optax.exponential_decay(1e-3, 100, 0.9))
constant_opt = optax.adam(1e-3)
optimizers = (warmup_opt, cosine_opt, smooth_opt, library_opt, constant_opt)


@jax.jit
def train_step(params, grads, states):
    _, warmup_state = warmup_opt.update(grads, states[0], params)
    _, cosine_state = cosine_opt.update(grads, states[1], params)
    _, smooth_state = smooth_opt.update(grads, states[2], params)
    _, library_state = library_opt.update(grads, states[3], params)
    _, constant_state = constant_opt.update(grads, states[4], params)
    return warmup_state, cosine_state, smooth_state, library_state, constant_state


if __name__ == "__main__":
    params = {"w": jnp.ones(3)}
    states = tuple(opt.init(params) for opt in optimizers)
    warmup_update = jax.jit(warmup_opt.update)
    cosine_update = jax.jit(cosine_opt.update)
    for hazard, error in [
        (lambda: train_step(params, params, states), jax.errors.TracerBoolConversionError),
        (lambda: warmup_update(params, states[0], params), jax.errors.TracerBoolConversionError),
        (lambda: cosine_update(params, states[1], params), jax.errors.TracerArrayConversionError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    smooth_update = jax.jit(smooth_opt.update)
    library_update = jax.jit(library_opt.update)
    constant_update = jax.jit(constant_opt.update)
    assert smooth_update(params, states[2], params)[0]["w"].shape == (3,)
    assert library_update(params, states[3], params)[0]["w"].shape == (3,)
    assert constant_update(params, states[4], params)[0]["w"].shape == (3,)
    print("ok")

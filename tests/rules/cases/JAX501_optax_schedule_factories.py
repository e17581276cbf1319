"""A schedule a factory of the module returns (flax's old triangular schedule how-to, flax#1903)
runs inside the optimizer's `update` like any other: a tracer wherever that is compiled
(measured with JAX 0.10.2 and optax: the `if` raises `TracerBoolConversionError` in `train_step`).

Near miss: a factory whose schedule is `jnp` arithmetic.
"""

import jax
import jax.numpy as jnp
import optax


def triangular(lr_min, lr_max, steps_per_cycle):
    top = (steps_per_cycle + 1) // 2

    def learning_rate_fn(step):
        cycle_step = step % steps_per_cycle
        if cycle_step < top:  # error: JAX501
            return lr_min + cycle_step / top * (lr_max - lr_min)
        return lr_max - (cycle_step - top) / top * (lr_max - lr_min)

    return learning_rate_fn


def warmup(peak, steps):
    return lambda step: peak * jnp.minimum(1.0, step / steps)  # ok: traced arithmetic


triangular_opt = optax.sgd(triangular(1e-3, 1e-1, 10))
warmup_opt = optax.adam(learning_rate=warmup(1e-3, 100))


@jax.jit
def train_step(params, grads, states):
    _, triangular_state = triangular_opt.update(grads, states[0], params)
    _, warmup_state = warmup_opt.update(grads, states[1], params)
    return triangular_state, warmup_state


if __name__ == "__main__":
    params = {"w": jnp.ones(3)}
    states = (triangular_opt.init(params), warmup_opt.init(params))
    try:
        train_step(params, params, states)
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("train_step did not raise TracerBoolConversionError")
    warm_update = jax.jit(warmup_opt.update)
    updates, _ = warm_update(params, states[1], params)
    assert updates["w"].shape == (3,)
    print("ok")

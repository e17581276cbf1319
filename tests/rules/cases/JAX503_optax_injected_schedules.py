"""`optax.inject_hyperparams(optax.sgd)(learning_rate=schedule)` builds the optimizer the wrapped
factory builds, its hyperparameters kept in the state: `init` calls the schedule with a concrete
step count, and `update` calls it with the state's count, a tracer wherever that `update` is
compiled (measured with JAX 0.10.2 and optax 0.2.8).

Near misses: a schedule of `jnp` operations, and a schedule whose optimizer is only updated
eagerly.
"""

import jax
import jax.numpy as jnp
import optax


def step_decay(count):
    phase = int(count) // 100  # error: JAX503
    return 0.1 * 0.5**phase


def warm(count):
    if count < 10:  # error: JAX501
        return 0.01
    return 0.1


def smooth_decay(count):
    return 0.1 * 0.5 ** (count // 100)  # ok: traced arithmetic


def eager_decay(count):
    return 0.1 * 0.5 ** (int(count) // 100)  # ok: its optimizer is updated eagerly


decayed = optax.inject_hyperparams(optax.sgd)(learning_rate=step_decay)
warmed = optax.inject_hyperparams(optax.adam)(warm)
smoothed = optax.inject_hyperparams(optax.sgd)(learning_rate=smooth_decay)
eager = optax.inject_hyperparams(optax.sgd)(learning_rate=eager_decay)


@jax.jit
def decayed_step(params, state):
    return decayed.update(params, state, params)


@jax.jit
def warmed_step(params, state):
    return warmed.update(params, state, params)


@jax.jit
def smoothed_step(params, state):
    return smoothed.update(params, state, params)


def eager_step(params, state):
    return eager.update(params, state, params)


def raises(thunk, error):
    try:
        thunk()
    except error:
        return True
    return False


if __name__ == "__main__":
    params = {"w": jnp.ones(3)}
    assert raises(lambda: decayed_step(params, decayed.init(params)), jax.errors.ConcretizationTypeError)
    assert raises(lambda: warmed_step(params, warmed.init(params)), jax.errors.TracerBoolConversionError)
    smoothed_step(params, smoothed.init(params))
    eager_step(params, eager.init(params))
    print("ok")

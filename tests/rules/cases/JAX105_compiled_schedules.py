# An optax schedule runs inside the optimizer's `update`: where that `update` is itself compiled
# (`jax.jit(tx.update)`), the schedule is traced once, so host randomness in it is drawn once
# and a Python `if` on the step count raises (measured with JAX 0.10.2 and optax 0.2.8).
import random

import jax
import jax.numpy as jnp
import optax


def jittered_lr(count):
    return 0.1 * random.uniform(0.5, 1.5)  # error: JAX105


def warmup(count):
    if count < 10:  # error: JAX501
        return 0.01
    return 0.1


def eager_jitter(count):
    return 0.1 * random.uniform(0.5, 1.5)  # its optimizer is updated eagerly: drawn every step


jittered = optax.sgd(learning_rate=jittered_lr)
update = jax.jit(jittered.update)
warmed = optax.adam(warmup)
warm_update = jax.jit(warmed.update)
eager = optax.sgd(learning_rate=eager_jitter)


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    params = jnp.ones(3)
    state = jittered.init(params)
    rates = set()
    for _ in range(4):
        updates, state = update(jnp.ones(3), state)
        rates.add(round(float(-updates[0]), 6))
    assert len(rates) == 1  # one rate, drawn while tracing
    assert raises(lambda: warm_update(jnp.ones(3), warmed.init(params)))
    state = eager.init(params)
    eager_rates = set()
    for _ in range(4):
        updates, state = eager.update(jnp.ones(3), state)
        eager_rates.add(round(float(-updates[0]), 6))
    assert len(eager_rates) > 1
    print("ok")

# Calling an enum class with a traced value looks it up by comparing it with each member's
# value: a tracer's truth value, so `TracerBoolConversionError` under `jit` and `vmap` (measured
# with JAX 0.10.2; under a bare `grad` the JVP tracer's value is compared, and it works).
import enum
from functools import partial

import jax
import jax.numpy as jnp


class Phase(enum.IntEnum):
    WARMUP = 0
    TRAIN = 1


class Color(enum.Enum):
    RED = 0
    GREEN = 1


def phase_scale(phase_id, lr):
    phase = Phase(phase_id)  # error: JAX503
    return lr * 0.1 if phase is Phase.WARMUP else lr


@jax.jit
def color_gain(code, x):
    return x * (2.0 if Color(code) is Color.RED else 1.0)  # error: JAX503


CURRENT = jnp.int32(1)


@jax.jit
def current_gain(x):
    return x * (2.0 if Phase(CURRENT) is Phase.TRAIN else 1.0)  # error: JAX503


# near misses


SCALES = jnp.array([0.1, 1.0])


def phase_scale_array(phase_id, lr):
    return lr * SCALES[phase_id]  # an array of what each member stands for


@partial(jax.jit, static_argnames=("phase",))
def static_phase(lr, phase):
    return lr * 0.1 if Phase(phase) is Phase.WARMUP else lr  # a static Python int


def graded(x):
    return x * (0.5 if Phase(x) is Phase.TRAIN else 2.0)  # a bare grad compares the value


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    ids, lrs = jnp.array([0, 1]), jnp.full((2,), 3e-4)
    assert raises(lambda: jax.vmap(phase_scale)(ids, lrs))
    assert raises(lambda: color_gain(jnp.int32(0), jnp.ones(2)))
    assert raises(lambda: current_gain(jnp.ones(2)))  # under jit, a global array compares to a tracer
    jax.vmap(phase_scale_array)(ids, lrs)
    static_phase(3e-4, phase=0)
    assert jax.grad(graded)(1.0) == 0.5
    print("ok")

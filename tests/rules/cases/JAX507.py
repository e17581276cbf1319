# A closure reads a variable when it runs: lambdas made in a comprehension all see the loop
# variable's last value, so `lax.switch` branches made so all compute the same thing
# (measured with JAX 0.10.2: every level returns the last gain).
import jax
import jax.numpy as jnp
from jax import lax

GAINS = [1.0, 2.0, 4.0]
branches = [lambda x: x * gain for gain in GAINS]  # error: JAX507


@jax.jit
def amplify(level, x):
    return lax.switch(level, branches, x)


def shift(index, x):
    return lax.switch(index, [lambda v: v + k for k in range(3)], x)  # error: JAX507


# near misses

bound_branches = [lambda x, gain=gain: x * gain for gain in GAINS]


@jax.jit
def amplify_bound(level, x):
    return lax.switch(level, bound_branches, x)


def scale_by(gain):
    return lambda x: x * gain


@jax.jit
def amplify_factory(level, x):
    return lax.switch(level, [scale_by(gain) for gain in GAINS], x)


@jax.jit
def unrelated(level, x):
    return lax.switch(level, [lambda v: v * 2.0 for _ in range(3)], x)


if __name__ == "__main__":
    levels = [amplify(i, jnp.float32(1.0)) for i in range(3)]
    assert all(float(v) == 4.0 for v in levels)
    assert [float(shift(i, jnp.float32(0.0))) for i in range(3)] == [2.0, 2.0, 2.0]
    assert [float(amplify_bound(i, jnp.float32(1.0))) for i in range(3)] == [1.0, 2.0, 4.0]
    assert [float(amplify_factory(i, jnp.float32(1.0))) for i in range(3)] == [1.0, 2.0, 4.0]
    assert float(unrelated(1, jnp.float32(1.0))) == 2.0

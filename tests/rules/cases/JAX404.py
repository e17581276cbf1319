# A `lax` loop body that returns its carry joined with more makes the carry longer on every
# step: JAX raises `TypeError` ("carry input and carry output must have equal types", measured
# with JAX 0.10.2). A rolling window (a slice of the carry joined), a scan output that grows,
# and a carry rebound before the join keep the carry's shape.
import jax.numpy as jnp
from jax import lax


def append_step(i, acc):
    return jnp.append(acc, i * 2.0)  # error: JAX404


def doubling(state):
    i, xs = state
    return i + 1, jnp.concatenate([xs, xs[-1:] * 2])  # error: JAX404


def stacked(rows, x):
    return jnp.vstack((rows, x[None])), None  # error: JAX404


# near misses


def window(acc, x):
    return jnp.concatenate([acc[1:], x[None]]), acc.sum()


def outputs(carry, x):
    return carry + x, jnp.concatenate([carry, x[None]])


def trimmed(state):
    i, xs = state
    xs = xs[:1]
    return i + 1, jnp.concatenate([xs, xs])


if __name__ == "__main__":
    hazards = [lambda: lax.fori_loop(0, 3, append_step, jnp.zeros(1)),
               lambda: lax.while_loop(lambda s: s[0] < 3, doubling, (0, jnp.ones(1))),
               lambda: lax.scan(stacked, jnp.zeros((1, 2)), jnp.ones((3, 2)))]
    carry, sums = lax.scan(window, jnp.zeros(3), jnp.ones(4))
    carry2, grown = lax.scan(outputs, jnp.zeros(1), jnp.ones(4))
    i, xs = lax.while_loop(lambda s: s[0] < 3, trimmed, (0, jnp.ones(2)))
    for hazard in hazards:
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert jnp.array_equal(carry, jnp.ones(3)) and sums.shape == (4,)
    assert jnp.array_equal(carry2, jnp.array([4.0])) and grown.shape == (4, 2)
    assert int(i) == 3 and jnp.array_equal(xs, jnp.ones(2))
    print("ok")

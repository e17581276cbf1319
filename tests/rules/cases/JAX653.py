# A lax loop's carry must keep its pytree structure: a NamedTuple carry handed back as a plain
# tuple (or a dataclass record as a dict) raises `TypeError` (measured with JAX 0.10.2).
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    pos: jax.Array
    vel: jax.Array


def leapfrog(state, _):
    vel = state.vel - 0.1 * state.pos
    pos = state.pos + 0.1 * vel
    return (pos, vel), pos  # error: JAX653


def rollout():
    init = State(jnp.array([1.0, 0.0]), jnp.array([0.0, 1.0]))
    return lax.scan(leapfrog, init, None, length=10)


def decay(i, state):
    return [state.pos * 0.9, state.vel]  # error: JAX653


def decayed():
    return lax.fori_loop(0, 3, decay, State(jnp.ones(2), jnp.zeros(2)))


# near misses


def leapfrog_kept(state, _):
    vel = state.vel - 0.1 * state.pos
    pos = state.pos + 0.1 * vel
    return State(pos, vel), pos


def replaced(i, state):
    return state._replace(pos=state.pos * 0.9)


def tuple_carry(carry, _):
    pos, vel = carry
    return (pos + vel, vel), pos


if __name__ == "__main__":
    for raising in (rollout, decayed):
        try:
            raising()
        except TypeError as error:
            assert "pytree structure" in str(error) or "carry" in str(error), error
        else:
            raise AssertionError("expected TypeError")
    init = State(jnp.ones(2), jnp.zeros(2))
    print(lax.scan(leapfrog_kept, init, None, length=3)[1].shape, lax.fori_loop(0, 2, replaced, init).pos)
    print(lax.scan(tuple_carry, (jnp.ones(2), jnp.zeros(2)), None, length=3)[1].shape)
    print("ok")

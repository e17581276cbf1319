# A jitted function that draws from its key and returns that key unchanged hands the caller a
# used key: the next call draws the same numbers (measured with JAX 0.10.2: three steps, three
# equal moves). Returning the new key of a split is the way.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class EnvState(NamedTuple):
    pos: jax.Array
    key: jax.Array


@jax.jit
def env_step(state):
    noise = jax.random.normal(state.key, (2,))
    return state._replace(pos=state.pos + noise)  # the same key goes on


@jax.jit
def good_env_step(state):
    key, noise_key = jax.random.split(state.key)
    return EnvState(state.pos + jax.random.normal(noise_key, (2,)), key)


@jax.jit
def walk(key, x):
    noise = jax.random.normal(key, (2,))
    return key, x + noise


@jax.jit
def good_walk(key, x):
    key, noise_key = jax.random.split(key)
    return key, x + jax.random.normal(noise_key, (2,))


def rollout(key):
    x = jnp.zeros(2)
    moves = []
    for _ in range(3):
        key, y = walk(key, x)  # error: JAX301
        moves.append(y - x)
        x = y
    return moves


def env_rollout():
    state = EnvState(jnp.zeros(2), jax.random.key(7))
    positions = [state.pos]
    for _ in range(3):
        state = env_step(state)  # error: JAX301
        positions.append(state.pos)
    return positions


def good_env_rollout():
    state = EnvState(jnp.zeros(2), jax.random.key(7))
    for _ in range(3):
        state = good_env_step(state)
    return state.pos


def good_rollout(key):
    x = jnp.zeros(2)
    for _ in range(3):
        key, x = good_walk(key, x)
    return x


if __name__ == "__main__":
    moves = rollout(jax.random.key(7))
    assert all(jnp.allclose(m, moves[0]) for m in moves)  # the same move every step
    positions = env_rollout()
    steps = [positions[i + 1] - positions[i] for i in range(3)]
    assert all(jnp.allclose(m, steps[0]) for m in steps)  # the same move every step
    print(moves[0], good_rollout(jax.random.key(7)), good_env_rollout())

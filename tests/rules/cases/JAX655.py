# jax.numpy's joining functions take arrays: a list of dicts or NamedTuples raises `TypeError`,
# and `jnp.array` of a list of dicts `ValueError` (measured with JAX 0.10.2).
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Step(NamedTuple):
    obs: jax.Array
    reward: jax.Array


def rollout(key, steps=4):
    noise = jax.random.normal(key, (steps,))
    return {"obs": jnp.cumsum(noise), "reward": -jnp.abs(noise)}


def batch_of_episodes(keys):
    episodes = [rollout(k) for k in keys]
    return jnp.stack(episodes)  # error: JAX655


def joined():
    return jnp.concatenate([Step(jnp.ones(2), jnp.ones(2)), Step(jnp.zeros(2), jnp.zeros(2))])  # error: JAX655


def as_array():
    return jnp.array([{"a": 1.0}, {"a": 2.0}])  # error: JAX655


# near misses


def leafwise(keys):
    episodes = [rollout(k) for k in keys]
    return jax.tree.map(lambda *xs: jnp.stack(xs), *episodes)


def rewards(keys):
    return jnp.stack([rollout(k)["reward"] for k in keys])


def records_as_array():
    return jnp.array([Step(jnp.ones(2), jnp.ones(2))])  # a NamedTuple is a sequence to jnp.array


if __name__ == "__main__":
    keys = jax.random.split(jax.random.key(0), 3)
    for raising in (lambda: batch_of_episodes(keys), joined, as_array):
        try:
            raising()
        except (TypeError, ValueError) as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected an error")
    print(leafwise(keys)["obs"].shape, rewards(keys).shape, records_as_array().shape)
    print("ok")

# A function that holds a key draws from it on every call: `partial(model.apply,
# rngs={"dropout": key})` gives the same dropout mask each step, and so does
# `partial(jax.random.normal, key)`, jitted or not (measured with JAX 0.10.2 and flax 0.12.8).
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.Dropout(0.5, deterministic=False)(x))


def train_steps(variables, x, key, steps):
    forward = jax.jit(functools.partial(Net().apply, rngs={"dropout": key}))
    return [forward(variables, x) for _ in range(steps)]  # error: JAX302


def twice(variables, x, key):
    forward = functools.partial(Net().apply, rngs={"dropout": key})
    first = forward(variables, x)
    return first, forward(variables, x)  # error: JAX301


def jitted_sampler(key):
    draw = jax.jit(functools.partial(jax.random.normal, key), static_argnums=0)
    first = draw((3,))
    return first, draw((3,))  # error: JAX301


# near misses


def one_key_per_step(variables, x, key, steps):
    outputs = []
    for step_key in jax.random.split(key, steps):
        forward = functools.partial(Net().apply, rngs={"dropout": step_key})
        outputs.append(forward(variables, x))
    return outputs


def key_passed_each_step(variables, x, key, steps):
    forward = jax.jit(lambda v, x, k: Net().apply(v, x, rngs={"dropout": k}))
    return [forward(variables, x, k) for k in jax.random.split(key, steps)]


def called_once(key):
    draw = jax.jit(functools.partial(jax.random.normal, key), static_argnums=0)
    return draw((3,))


if __name__ == "__main__":
    x = jnp.ones((1, 8))
    variables = Net().init({"params": jax.random.key(0), "dropout": jax.random.key(1)}, x)
    outs = train_steps(variables, x, jax.random.key(2), 3)
    assert jnp.array_equal(outs[0], outs[2])  # the same mask every step
    a, b = twice(variables, x, jax.random.key(3))
    assert jnp.array_equal(a, b)
    a, b = jitted_sampler(jax.random.key(4))
    assert jnp.array_equal(a, b)
    outs = one_key_per_step(variables, x, jax.random.key(5), 3)
    assert not all(jnp.array_equal(outs[0], o) for o in outs[1:])
    outs = key_passed_each_step(variables, x, jax.random.key(6), 3)
    assert not all(jnp.array_equal(outs[0], o) for o in outs[1:])
    assert called_once(jax.random.key(7)).shape == (3,)
    print("ok")

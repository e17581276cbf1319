# `lax.scan`, `while_loop`, `fori_loop`, `cond` and `switch` cache the trace of the function they
# are given, keyed on the function object, even called eagerly (no jit): a function of the module
# is one object, so a global it reads stays at the value of its first trace (measured with JAX
# 0.10.2). A nested function, a lambda or a bound method is a new object on every call, traced
# afresh; `lax.map` wraps its function anew on every call.
import jax.numpy as jnp
from jax import lax

DISCOUNT = 0.9
DAMPING = 1.0
MAX_NORM = 1.0
SCALE = 1.0
FRICTION = 0.1
FRESH = 1.0


def discount_step(acc, reward):
    acc = reward + DISCOUNT * acc  # error: JAX103
    return acc, acc


def returns(rewards):
    return lax.scan(discount_step, jnp.float32(0.0), rewards)[1]


def damped(x):
    return x * DAMPING  # error: JAX103


def iterate():
    return lax.while_loop(lambda x: x > 8.0, damped, jnp.float32(10.0))


def clipped(g):
    return g * MAX_NORM  # error: JAX103


def kept(g):
    return g


def maybe_clip(g):
    return lax.cond(g > 0.5, clipped, kept, g)


def scaled(x):
    return x * SCALE  # error: JAX103


def pick(x):
    return lax.switch(0, [scaled, kept], x)


def slowed(i, v):
    return v * (1.0 - FRICTION)  # error: JAX103


def simulate():
    return lax.fori_loop(0, 3, slowed, jnp.float32(1.0))


GAMMA = 0.9


def gamma_step(acc, reward):
    return reward + GAMMA * acc, acc  # error: JAX103


first_returns = lax.scan(gamma_step, 0.0, jnp.ones(3))[1]  # module code runs the scan too
GAMMA = 0.5
second_returns = lax.scan(gamma_step, 0.0, jnp.ones(3))[1]
assert jnp.allclose(first_returns, second_returns)


# near misses


def nested_body(rewards):
    def step(acc, reward):
        acc = reward + FRESH * acc
        return acc, acc

    return lax.scan(step, jnp.float32(0.0), rewards)[1]


def set_fresh(value):
    global FRESH
    FRESH = value


def lambda_body(rewards):
    return lax.scan(lambda acc, r: (r + FRESH * acc, acc), jnp.float32(0.0), rewards)[1]


class Rollout:
    def step(self, acc, reward):
        return reward + FRESH * acc, acc

    def run(self, rewards):
        return lax.scan(self.step, jnp.float32(0.0), rewards)[1]


def row(x):
    return x * FRESH


def mapped(xs):
    return lax.map(row, xs)


def outputs(rewards):
    scanned = [returns(rewards), nested_body(rewards), lambda_body(rewards), Rollout().run(rewards)]
    return [*scanned, mapped(rewards), iterate(), maybe_clip(1.0), pick(1.0), simulate()]


if __name__ == "__main__":
    rewards = jnp.ones(3)
    before = outputs(rewards)
    DISCOUNT, DAMPING, MAX_NORM, SCALE, FRICTION = 0.5, 0.5, 0.1, 3.0, 0.5
    set_fresh(2.0)
    after = outputs(rewards)
    frozen = [bool(jnp.allclose(a, b)) for a, b in zip(before, after)]
    assert frozen == [True, False, False, False, False, True, True, True, True], frozen
    print("ok")

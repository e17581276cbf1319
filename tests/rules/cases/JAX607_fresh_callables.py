# A static argument given a callable made anew in the loop that calls the jitted function: a
# `lambda`, a `functools.partial`, an optax transformation (a tuple of fresh closures). None of
# them equals the one before (measured with JAX 0.10.2, optax 0.2.8), so every iteration is a
# new static value and JAX compiles again: 3 calls, 3 traces. Made once, they compile once.
import functools
from functools import partial

import jax
import jax.numpy as jnp
import optax

TRACES = []


@partial(jax.jit, static_argnums=(0,))
def apply_transform(fn, x):
    TRACES.append("apply")
    return fn(x).sum()


@partial(jax.jit, static_argnames=("tx",))
def train_step(params, opt_state, x, tx):
    TRACES.append("train")
    grads = jax.grad(lambda p: jnp.mean((x @ p) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def scaled(v, factor):
    return v * factor


def per_epoch(x):
    for _ in range(3):
        apply_transform(lambda v: jnp.tanh(v) * 2.0, x)  # error: JAX607
        apply_transform(functools.partial(scaled, factor=2.0), x)  # error: JAX607


def fresh_optimizer(params):
    opt_state = optax.adam(1e-2).init(params)
    for _ in range(3):
        params, opt_state = train_step(params, opt_state, jnp.ones((2, 3)), tx=optax.adam(1e-2))  # error: JAX607
    return params


forward_and_grad = jax.jit(jax.value_and_grad(lambda w, x, act: jnp.sum(act(x @ w))), static_argnums=2)


def named_in_the_loop(w, x):
    for _ in range(3):
        act = functools.partial(jax.nn.leaky_relu, negative_slope=0.1)
        forward_and_grad(w, x, act)  # error: JAX607


def made_once(x, params):
    squash = lambda v: jnp.tanh(v) * 2.0  # noqa: E731
    tx = optax.adam(1e-2)
    opt_state = tx.init(params)
    for _ in range(3):
        apply_transform(squash, x)
        params, opt_state = train_step(params, opt_state, jnp.ones((2, 3)), tx=tx)
    return params


def once(x):
    return apply_transform(lambda v: v + 1.0, x)  # no loop: one compilation


def main():
    x, params = jnp.ones(4), jnp.ones(3)
    per_epoch(x)
    fresh = TRACES.count("apply"), TRACES.count("train")
    fresh_optimizer(params)
    retraced = TRACES.count("train")
    TRACES.clear()
    made_once(x, params)
    once(x)
    return fresh, retraced, TRACES.count("apply"), TRACES.count("train")


if __name__ == "__main__":
    fresh, retraced, applied, trained = main()
    assert fresh == (6, 0) and retraced == 3, (fresh, retraced)
    assert (applied, trained) == (2, 1), (applied, trained)
    named_in_the_loop(jnp.ones((3, 2)), jnp.ones((4, 3)))
    assert forward_and_grad._cache_size() == 3  # one compilation per iteration
    print("ok")

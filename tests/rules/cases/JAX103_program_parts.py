# A module-level function that a jitted function traces as part of its program (a branch of
# `lax.switch`/`lax.cond`, a `scan` body, a `checkpoint` block called under `jit(grad)`) reads a
# global changed between two calls of the jitted function: the compiled program keeps the value
# it read at trace time (measured with JAX 0.10.2). Passing the value in is fine.
import jax
import jax.numpy as jnp
from jax import lax

LEAK = 0.01
LAYER_SCALE = 1.0
DECAY = 0.9


def relu(x):
    return jnp.maximum(x, 0.0)


def leaky(x):
    return jnp.where(x > 0, x, LEAK * x)  # error: JAX103


@jax.jit
def activate(kind, x):
    return lax.switch(kind, [relu, leaky], x)


@jax.checkpoint
def residual_block(w, h):
    return h + LAYER_SCALE * jnp.tanh(h @ w)  # error: JAX103


def loss(w, x):
    return jnp.sum(residual_block(w, residual_block(w, x)) ** 2)


grad_fn = jax.jit(jax.grad(loss))


def step(carry, x):
    return carry * DECAY + x, carry  # error: JAX103


@jax.jit
def smooth(xs):
    return lax.scan(step, 0.0, xs)[0]


# near misses


def leaky_by(x, leak):
    return jnp.where(x > 0, x, leak * x)


@jax.jit
def activate_by(kind, x, leak):
    return lax.switch(kind, [relu, lambda v: leaky_by(v, leak)], x)


def main():
    global LEAK, LAYER_SCALE, DECAY
    x, w = jnp.array([-2.0, 1.0]), jnp.eye(2) * 0.5
    first = activate(1, x), grad_fn(w, x[None]), smooth(x), activate_by(1, x, LEAK)
    LEAK, LAYER_SCALE, DECAY = 0.2, 0.0, 0.0
    second = activate(1, x), grad_fn(w, x[None]), smooth(x), activate_by(1, x, LEAK)
    return first, second


if __name__ == "__main__":
    first, second = main()
    for stale in range(3):
        assert jnp.allclose(first[stale], second[stale])  # the compiled programs kept the old values
    assert not jnp.allclose(first[3], second[3])
    print("ok")

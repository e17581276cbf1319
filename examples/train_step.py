"""A small training loop with the hazards people hit first when they add `jax.jit`."""

import functools
import logging

import jax
import jax.numpy as jnp

logger = logging.getLogger(__name__)
learning_rate = 0.1
loss_history = []


def set_learning_rate(value):
    global learning_rate
    learning_rate = value


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def train_step(w, x, y, clip):
    loss, grad = jax.value_and_grad(mse)(w, x, y)
    print("loss:", loss)  # runs once, at trace time
    loss_history.append(loss)  # leaks a tracer
    if clip:  # `clip` is traced: TracerBoolConversionError
        grad = jnp.clip(grad, -1.0, 1.0)
    return w - learning_rate * grad  # frozen at its trace-time value


@functools.partial(jax.jit, static_argnames=("clip",))
def train_step_fixed(w, x, y, lr, clip):
    loss, grad = jax.value_and_grad(mse)(w, x, y)
    jax.debug.print("loss: {}", loss)
    if clip:
        grad = jnp.clip(grad, -1.0, 1.0)
    return w - lr * grad, loss


def train(w, x, y, steps):
    for step in range(steps):
        w, loss = train_step_fixed(w, x, y, learning_rate, clip=True)
        logger.info("step %d: loss %.4f", step, float(loss))
    return w

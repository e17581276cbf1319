# `eqx.filter_jit` holds every argument that is not an array static: a Python number that changes
# on every iteration of a training loop is a new static value each time, and equinox compiles the
# function again for each (measured with JAX 0.10.2 and equinox 0.13.8: 100 steps, 100 entries).
import equinox as eqx
import jax.numpy as jnp
import numpy as np


@eqx.filter_jit
def sgd_step(w, grad, lr):
    return w - lr * grad


def scaled(w, factor):
    return w * factor


scaled_step = eqx.filter_jit(scaled)


def decayed(w, grad, steps=100):
    lr = 0.1
    for _ in range(steps):
        w = sgd_step(w, grad, lr)  # error: JAX607
        lr = lr * 0.9
    return w


def annealed(w, grad):
    for step in range(100):
        w = sgd_step(w, grad, 0.1 / (1 + step))  # error: JAX607
    return w


def rescaled(w):
    for step in range(100):
        w = scaled_step(w, step)  # error: JAX607
    return w


# near misses


def decayed_array(w, grad, steps=100):
    lr = jnp.asarray(0.1)
    for _ in range(steps):
        w = sgd_step(w, grad, lr)  # an array: traced, one compilation
        lr = lr * 0.9
    return w


def decayed_numpy(w, grad, steps=100):
    lr = np.float32(0.1)
    for _ in range(steps):
        w = sgd_step(w, grad, lr)  # a NumPy value: traced as an array
        lr = lr * 0.9
    return w


def constant_rate(w, grad):
    for _ in range(100):
        w = sgd_step(w, grad, 0.1)  # the same static value every time
    return w


def few_steps(w, grad):
    for step in range(4):
        w = sgd_step(w, grad, 0.1 / (1 + step))  # a short loop: a few compilations
    return w


if __name__ == "__main__":
    w, grad = jnp.ones(3), jnp.full(3, 0.1)
    decayed(w, grad)
    assert sgd_step._cached._cache_size() == 100
    sgd_step._cached.clear_cache()
    annealed(w, grad)
    assert sgd_step._cached._cache_size() == 100
    rescaled(w)
    assert scaled_step._cached._cache_size() == 100
    sgd_step._cached.clear_cache()
    decayed_array(w, grad)
    assert sgd_step._cached._cache_size() == 1
    sgd_step._cached.clear_cache()
    decayed_numpy(w, grad)
    assert sgd_step._cached._cache_size() == 1
    sgd_step._cached.clear_cache()
    constant_rate(w, grad)
    assert sgd_step._cached._cache_size() == 1
    print("ok")

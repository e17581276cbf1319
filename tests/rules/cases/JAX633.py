# `argnums` counts the positional arguments of each call: a differentiated argument given by
# keyword or left to its default raises `TypeError` (`grad`, `value_and_grad`) or `ValueError`
# (`jacrev`, `jacfwd`, `hessian`), measured with JAX 0.10.2.
from functools import partial

import jax
import jax.numpy as jnp


def loss(w, x, y=1.0):
    return jnp.sum((w * x - y) ** 2)


w = jnp.ones(2)
x = jnp.ones(2)
dloss_dy = jax.grad(loss, argnums=2)


@partial(jax.grad, argnums=1)
def energy(a, b):
    return jnp.sum(a * b**2)


@jax.jit
def step(w, x):
    return jax.value_and_grad(loss, argnums=(0, 2))(w, x)  # error: JAX633 (y left to its default)


def keyword():
    return dloss_dy(w, x, y=2.0)  # error: JAX633


def curvature():
    return jax.hessian(loss, argnums=1)(w)  # error: JAX633


def decorated():
    return energy(w, b=x)  # error: JAX633


# near misses


def positional():
    return dloss_dy(w, x, 2.0), energy(w, x), jax.hessian(loss, argnums=1)(w, x)


def from_the_end():
    return jax.grad(loss, argnums=-1)(w, x)  # the last positional argument: x


def unpacked(args):
    return dloss_dy(*args)


if __name__ == "__main__":
    positional()
    from_the_end()
    unpacked((w, x, 2.0))
    for failing in (lambda: step(w, x), keyword, curvature, decorated):
        try:
            failing()
        except (TypeError, ValueError) as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected an error")

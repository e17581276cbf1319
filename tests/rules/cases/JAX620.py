# Donating an argument lets XLA write the result into its buffer: JAX deletes the array, and any
# later read raises `RuntimeError: Array has been deleted` (passed to another call: `Buffer has
# been deleted or donated`), measured with JAX 0.10.2 on CPU. A donation JAX cannot use (no
# result of the donated shape) keeps the array, with a warning; metadata stays readable.
from functools import partial

import jax
import jax.numpy as jnp
import optax


@partial(jax.jit, donate_argnums=0)
def sgd(params, grads):
    return params - 0.1 * grads


@partial(jax.jit, donate_argnames="params")
def apply(params, updates):
    return optax.apply_updates(params, updates), jnp.sum(updates)


@partial(jax.jit, donate_argnums=0)
def total(x):
    return x.sum()


step = jax.jit(lambda w, g: w - g, donate_argnums=(0,))


def delta():
    params = jnp.ones(4)
    new_params = sgd(params, jnp.ones(4))
    return new_params - params  # error: JAX620


def repeated(steps):
    params = jnp.ones(4)
    grads = jnp.ones(4)
    for _ in range(steps):
        new_params = sgd(params, grads)  # error: JAX620 (the next iteration passes it again)
    return new_params


def keyword():
    params = jnp.ones(4)
    out, norm = apply(params=params, updates=jnp.ones(4))
    print(params)  # error: JAX620
    return out, norm


def lambda_jit():
    w = jnp.ones(4)
    out = step(w, jnp.ones(4))
    return out + w  # error: JAX620


def tree_sgd(params, grads):
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


tree_sgd = jax.jit(tree_sgd, donate_argnames="params")


def compared_with_start():
    params = {"w": jnp.ones(4), "b": jnp.zeros(2)}
    start = params
    params = tree_sgd(params, {"w": jnp.ones(4), "b": jnp.ones(2)})
    return jax.tree.map(lambda a, b: a - b, params, start)  # error: JAX620 (`start` is the donated dict)


# near misses


def rebound(steps):
    params = jnp.ones(4)
    for _ in range(steps):
        params = sgd(params, jnp.ones(4))
    return params


def metadata():
    params = jnp.ones(4)
    new_params = sgd(params, jnp.ones(4))
    return new_params, params.shape, params.dtype, len(params)


def copied_first():
    params = {"w": jnp.ones(4), "b": jnp.zeros(2)}
    start = jax.tree.map(jnp.copy, params)
    params = tree_sgd(params, {"w": jnp.ones(4), "b": jnp.ones(2)})
    return jax.tree.map(lambda a, b: a - b, params, start)


def inspected():
    params = jnp.ones(4)
    new_params = sgd(params, jnp.ones(4))
    assert params.is_deleted()
    return new_params, sgd.lower(params, jnp.ones(4)).as_text()[:10]


def not_donated():
    grads = jnp.ones(4)
    params = sgd(jnp.ones(4), grads)
    return params + grads


def unusable():
    x = jnp.ones(4)
    s = total(x)  # nothing of x's shape comes back: JAX keeps x (and warns)
    return s + x


def numpy_input():
    import numpy as np

    params = np.ones(4, np.float32)
    new_params = sgd(params, jnp.ones(4))
    return new_params - params


@jax.jit
def inside_jit(params):
    new_params = sgd(params, params)  # donation is ignored inside traced code
    return new_params - params


if __name__ == "__main__":
    print(rebound(2), metadata(), copied_first(), inspected(), not_donated(), unusable(), numpy_input(), inside_jit(jnp.ones(4)))
    for failing in (delta, lambda: repeated(2), keyword, lambda_jit, compared_with_start):
        try:
            failing()
        except (RuntimeError, ValueError) as error:
            print("raised:", str(error)[:60])
        else:
            raise AssertionError("expected the deleted array to raise")

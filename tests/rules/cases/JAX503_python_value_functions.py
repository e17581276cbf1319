# Python functions of one value that convert, serialise or hash it: given a tracer (or a dict
# holding one) they raise, under `jit` and under a bare `grad` alike (measured with JAX 0.10.2,
# table `python_on_traced_values`).
import decimal
import json
import pickle
import struct

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    record = json.dumps({"loss": loss})  # error: JAX503
    return w - 0.1 * g, record


def packed_loss(w):
    loss = jnp.sum(w**2)
    struct.pack("<f", loss)  # error: JAX503
    return loss


def snapshot(w):
    return pickle.dumps(w * 2.0)  # error: JAX503


def exact(x):
    return decimal.Decimal(x)  # error: JAX503


# near misses


@jax.jit
def logged_shapes(w):
    header = json.dumps({"shape": list(w.shape)})  # static: the shape
    return w * len(header)


def host_record(w, x, y):
    w, _ = train_step_clean(w, x, y)
    return json.dumps({"w": w.tolist()})  # eager: concrete values


@jax.jit
def train_step_clean(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss


def raises(thunk):
    try:
        thunk()
    except (TypeError, struct.error, jax.errors.ConcretizationTypeError):
        return True
    return False


if __name__ == "__main__":
    w, x, y = jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4)
    assert raises(lambda: train_step(w, x, y))
    assert raises(lambda: jax.grad(packed_loss)(w))
    assert raises(lambda: jax.jit(snapshot)(w))
    assert raises(lambda: jax.vmap(exact)(w))
    logged_shapes(w)
    host_record(w, x, y)
    print("ok")

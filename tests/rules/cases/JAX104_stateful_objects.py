# A standard-library object that holds state, changed in traced code: a module-level
# `threading.Event` set in a `lax.cond` branch (JAX traces both branches, whichever runs),
# a `contextvars.ContextVar` set to a traced loss (the tracer leaks). Measured with JAX 0.10.2.
import contextvars
import threading

import jax
import jax.numpy as jnp
from jax import lax

stop_training = threading.Event()
last_loss = contextvars.ContextVar("last_loss", default=None)
phase = contextvars.ContextVar("phase", default="idle")


def mark_stop(loss):
    stop_training.set()  # error: JAX104
    return loss


@jax.jit
def check_plateau(loss, best):
    return lax.cond(loss > best - 1e-4, mark_stop, lambda value: value, loss)


def loss_fn(w, x):
    loss = jnp.mean((x @ w) ** 2)
    last_loss.set(loss)  # error: JAX104
    return loss


@jax.jit
def marks_the_phase(x):
    phase.set("training")  # error: JAX104
    return x * 2.0


# near misses


def host_stop(loss):
    if loss > 1.0:
        stop_training.set()  # eager: runs on every call
    return loss


def reads_the_flag(x):
    return jnp.where(stop_training.is_set(), x, 0.0)  # a read, not a change


def local_event(x):
    done = threading.Event()
    done.set()  # made and set in the same trace
    return x if done.is_set() else -x


def mapped(x):
    phase.set("mapped")  # a bare vmap traces again on every call
    return x + 1.0


if __name__ == "__main__":
    check_plateau(jnp.float32(0.2), jnp.float32(0.9))
    assert stop_training.is_set()  # set although the loss improved
    jax.grad(loss_fn)(jnp.zeros(3), jnp.ones((2, 3)))
    assert isinstance(last_loss.get(), jax.core.Tracer)  # the tracer leaked
    phase.set("idle")
    marks_the_phase(jnp.ones(2))
    phase.set("idle")
    marks_the_phase(jnp.ones(2))
    assert phase.get() == "idle"  # the second call did not set it
    stop_training.clear()
    host_stop(2.0)
    assert stop_training.is_set()
    jax.jit(reads_the_flag)(jnp.ones(2))
    jax.jit(local_event)(jnp.ones(2))
    jax.vmap(mapped)(jnp.ones(2))
    assert phase.get() == "mapped"
    print("ok")

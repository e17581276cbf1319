# A function handed to a jitted function as a static argument runs while JAX traces the code
# that calls it, here a `lax.fori_loop` body the jitted function defines: its append runs once,
# with a tracer (measured with JAX 0.10.2: ten steps, one history entry).
import jax
import jax.numpy as jnp
from jax import lax

history = []
printed = []


def fit(w, n_steps, on_step):
    def body(i, w):
        loss = jnp.sum(w**2)
        on_step(i, loss)
        return w * 0.9

    return lax.fori_loop(0, n_steps, body, w)


def record(i, loss):
    history.append(loss)  # error: JAX104


def report(i, loss):
    jax.debug.callback(lambda v: printed.append(float(v)), loss)


fit_jit = jax.jit(fit, static_argnums=(1, 2))


# near misses


def eager_fit(w, n_steps, on_step):
    for i in range(n_steps):
        on_step(i, jnp.sum(w**2))
        w = w * 0.9
    return w


eager_log = []


def log_eagerly(i, loss):
    eager_log.append(float(loss))


if __name__ == "__main__":
    fit_jit(jnp.ones(3), 10, record)
    assert len(history) == 1
    fit_jit(jnp.ones(3), 10, report)
    eager_fit(jnp.ones(3), 3, log_eagerly)
    assert len(printed) == 10 and len(eager_log) == 3
    print("ok")

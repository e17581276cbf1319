# Functions of NumPy's and SciPy's host-only modules convert their arguments with `np.asarray`:
# given a tracer, JAX raises `TracerArrayConversionError` (measured with JAX 0.10.2, NumPy 2.4
# and SciPy 1.17). Most have no JAX namesake; where JAX has one that is not measured
# (`jax.scipy.stats.norm.cdf`), it is named.
import jax
import jax.numpy as jnp
import numpy as np
from scipy import signal, stats

B, A = [0.2], [1.0, -0.8]


@jax.jit
def sgd_step(w, g):
    new_w = w - 0.1 * g
    np.testing.assert_array_less(jnp.abs(new_w), 1e3)  # error: JAX602
    return new_w


smooth = jax.jit(lambda x: signal.lfilter(B, A, x))  # error: JAX602


@jax.vmap
def ranked(row):
    return stats.rankdata(row)  # error: JAX602


def probit_loss(w, x, y):
    p = stats.norm.cdf(x @ w)  # error: JAX602
    return -jnp.mean(y * jnp.log(p) + (1 - y) * jnp.log1p(-p))


# near misses


def checked_step(w, g):
    new_w = sgd_step_clean(w, g)
    np.testing.assert_array_less(np.abs(new_w), 1e3)  # on the result, after the call
    return new_w


@jax.jit
def sgd_step_clean(w, g):
    return w - 0.1 * g


TAPS = signal.firwin(5, 0.3)  # on constants, at import


@jax.jit
def filtered(x):
    return jnp.convolve(x, jnp.asarray(TAPS), mode="same")


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerArrayConversionError:
        return True
    return False


if __name__ == "__main__":
    w, g = jnp.ones(4), jnp.full(4, 0.5)
    assert raises(lambda: sgd_step(w, g))
    assert raises(lambda: smooth(jnp.sin(jnp.linspace(0.0, 6.0, 32))))
    assert raises(lambda: ranked(jnp.ones((2, 3))))
    assert raises(lambda: jax.value_and_grad(probit_loss)(jnp.ones(3), jnp.ones((4, 3)), jnp.ones(4)))
    checked_step(w, g)
    filtered(jnp.ones(8))
    print("ok")

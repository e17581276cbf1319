# SciPy functions convert their arguments to NumPy arrays: on a tracer they raise
# `TracerArrayConversionError` (measured with JAX 0.10.2 and SciPy 1.17 by
# tools/measure_jax_api.py), where their `jax.scipy` namesakes trace.
import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from scipy.linalg import expm
from scipy.special import logsumexp


def bce(logits, labels):
    p = scipy.special.expit(logits)  # error: JAX602
    return -jnp.mean(labels * jnp.log(p) + (1 - labels) * jnp.log(1 - p))


@jax.jit
def log_partition(scores):
    return logsumexp(scores)  # error: JAX602


@jax.vmap
def propagate(generator):
    return expm(generator)  # error: JAX602


# near misses


def eager_probabilities(logits):
    return scipy.special.expit(np.asarray(logits))


@jax.jit
def with_constants(x):
    return x * scipy.special.expit(0.5)  # a Python number: computed while tracing


@jax.jit
def jax_namesake(scores):
    return jax.scipy.special.logsumexp(scores)


if __name__ == "__main__":
    print(eager_probabilities([0.0, 1.0]), with_constants(jnp.ones(2)), jax_namesake(jnp.ones(3)))
    for failing in (
        lambda: jax.grad(bce)(jnp.array([0.2, -1.0]), jnp.array([1.0, 0.0])),
        lambda: log_partition(jnp.ones(3)),
        lambda: propagate(jnp.zeros((2, 3, 3))),
    ):
        try:
            failing()
        except jax.errors.TracerArrayConversionError:
            print("TracerArrayConversionError")
        else:
            raise AssertionError("expected TracerArrayConversionError")

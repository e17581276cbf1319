# What a jitted function returns to eager code is JAX arrays, whatever it was given: writing
# into it raises. A NumPy copy (`np.array`) is writable.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def forward(x):
    return jnp.tanh(x), x.shape[0]


def write_into_outputs(x):
    out, n = forward(x)
    out[0] = 0.0  # error: JAX201
    return out, n


def write_into_a_host_copy(x):
    host = np.array(forward(x)[0])
    host[0] = 0.0  # a NumPy copy: writable
    return host


def main():
    out = forward(np.ones(3))[0]
    out[1:] = 1.0  # error: JAX201
    return out


scores = forward(np.ones(3))[0]
scores[0] = 1.0  # error: JAX201 (module code, before the model ran `forward`)

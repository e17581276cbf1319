# fix: safe
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def predict(x):
    return jnp.tanh(x)


scores = np.asarray(predict(jnp.linspace(-2, 2, 5)))  # host copy
scores[scores < 0] = 0.0
assert (scores >= 0).all()

"""`jax.grad(f)(x)` called eagerly returns the gradient with the pytree of `x`, each leaf a JAX
array: assigning into one raises `TypeError` (JAX arrays are immutable; measured with JAX
0.10.2). `value_and_grad` returns the value with it."""

import jax
import jax.numpy as jnp
import numpy as np


def loss(params):
    return jnp.sum(params["w"] ** 2) + jnp.sum(params["b"])


params = {"w": jnp.arange(4.0), "b": jnp.zeros(2)}
grads = jax.grad(loss)(params)
grads["w"][0] = 0.0  # error: JAX201

value, grads_too = jax.value_and_grad(loss)(params)
grads_too["b"][1] = 0.0  # error: JAX201

weights = jnp.ones(3)
slope = jax.grad(lambda w: jnp.sum(w**2))(weights)
slope[0] = 0.0  # error: JAX201

# near misses
grads["w"] = grads["w"].at[0].set(0.0)  # ok: a new leaf in the dict
grads["extra"] = jnp.zeros(1)  # ok: the dict itself is a Python dict
host = np.array(jax.grad(lambda w: jnp.sum(w**2))(weights))
host[0] = 0.0  # ok: a writable NumPy copy
other = jax.grad(lambda w, s: jnp.sum(w * s), argnums=1)(weights, np.ones(3))

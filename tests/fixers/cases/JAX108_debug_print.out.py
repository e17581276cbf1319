# fix: safe
import jax
import jax.numpy as jnp
from jax import debug


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print("loss = {}", loss)  # a comment stays
    jax.debug.print("loss = {:.3f} w = {!r} {{braces}}", loss, w, ordered=True)
    debug.print("step {}: {}", x.shape[0], loss)
    jax.debug.print("loss = {}".format(loss))  # no fix
    jax.debug.print(f"{loss} and {{}}", w)  # no fix
    return w - 0.1 * loss

# fix: safe
import jax
import jax.numpy as jnp
from jax import debug

LAYERS = [64, 64]


@jax.jit
def train_step(w, x, step):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print("loss = {}", loss)  # a comment stays
    jax.debug.print("loss = {:.3f} w = {!r}", loss, w, ordered=True)
    jax.debug.print(f"step {step}: loss {{l:.2f}}", l=loss)  # no fix
    jax.debug.print(f"{LAYERS} loss {loss}")  # no fix (a static field must stay hashable)
    debug.print("step {}: {}", x.shape[0], loss)
    jax.debug.print(f"shape {x.shape}: {loss}")  # no fix: a tuple prints as a tuple of arrays
    jax.debug.print("loss = {}".format(loss))  # no fix
    jax.debug.print(f"{loss} and {{}}", w)  # no fix
    return w - 0.1 * loss

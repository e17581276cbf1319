# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def maybe_reset(state, loss):
    if loss > 1.0:  # a dict: `jnp.where` rejects it, `lax.cond` takes it
        state = {"w": jnp.zeros_like(state["w"]), "step": state["step"]}
    return state


@jax.jit
def pair(x):
    if x.sum() > 0:  # a `jnp.where` for each element: the tuple stays a tuple
        return x, x + 1
    return x, x - 1


@jax.jit
def clip(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x
    return y

# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def maybe_reset(state, loss):
    def true_branch(state):  # a dict: `jnp.where` rejects it, `lax.cond` takes it
        state = {"w": jnp.zeros_like(state["w"]), "step": state["step"]}
        return state
    def false_branch(state):
        return state
    state = jax.lax.cond(loss > 1.0, true_branch, false_branch, state)
    return state


@jax.jit
def pair(x):
    # a `jnp.where` for each element: the tuple stays a tuple
    return x, jnp.where(x.sum() > 0, x + 1, x - 1)


@jax.jit
def clip(x):
    y = jnp.where(x.sum() > 0, x * 2, x)
    return y

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


@jax.jit
def skip_update(loss, grads, zeros):
    if loss > 1.0:  # `grads` is a pytree (handed to `tree_map`): `lax.cond`, not `jnp.where`
        grads = zeros
    return jax.tree_util.tree_map(lambda g: g * 0.5, grads)


@jax.jit
def pick(flag, params, other):
    if flag > 0:  # ok to use `jnp.where`: nothing says `params` is not an array
        params = other
    return params * 2

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


@jax.jit
def skip_update(loss, grads, zeros):
    def true_branch(grads, zeros):  # `grads` is a pytree (handed to `tree_map`): `lax.cond`, not `jnp.where`
        grads = zeros
        return grads
    def false_branch(grads, zeros):
        return grads
    grads = jax.lax.cond(loss > 1.0, true_branch, false_branch, grads, zeros)
    return jax.tree_util.tree_map(lambda g: g * 0.5, grads)


@jax.jit
def pick(flag, params, other):
    # ok to use `jnp.where`: nothing says `params` is not an array
    params = jnp.where(flag > 0, other, params)
    return params * 2

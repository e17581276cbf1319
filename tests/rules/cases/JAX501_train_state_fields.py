"""Fields of flax's `TrainState` passed to compiled code, as JAX 0.10.2 and flax treat them
(measured: `measured.library_records`): `step`, `params` and `opt_state` are leaves and
subtrees, traced under `jit`; `apply_fn` and `tx` stay in the treedef, Python values. A
subclass adds its own fields after them.
"""

from functools import partial

import jax
import jax.numpy as jnp
from flax import struct
from flax.training import train_state

@jax.jit
def warmup_step(state, grads):
    if state.step < 10:  # error: JAX501
        grads = jax.tree_util.tree_map(lambda g: g * 0.1, grads)
    return state.apply_gradients(grads=grads)


class TrainState(train_state.TrainState):
    batch_stats: dict
    label: str = struct.field(pytree_node=False, default="run")


@partial(jax.jit, donate_argnums=0)
def stats_step(state: TrainState, grads):
    if state.batch_stats["mean"] > 0:  # error: JAX501
        grads = jax.tree_util.tree_map(jnp.zeros_like, grads)
    return state.apply_gradients(grads=grads)


@jax.jit
def looped(state, grads):
    def body(i, state):
        return jax.lax.cond(state.step > 5, lambda s: s, lambda s: s.apply_gradients(grads=grads), state)

    return jax.lax.fori_loop(0, 3, body, state)


# near misses: what stays a Python value, or runs eagerly


@jax.jit
def static_parts(state, x):
    if state.tx is None:  # ok: `tx` is kept in the treedef
        return x
    if state.apply_fn is not None:  # ok: so is `apply_fn`
        x = state.apply_fn({"params": state.params}, x)
    if state.label == "run":  # ok: a static field of the subclass
        x = x + 1
    if state.params:  # ok: a dict of arrays is truthy by its keys
        x = x * 2
    return x


@jax.jit
def masked_step(state, grads):
    scale = jnp.where(state.step < 10, 0.1, 1.0)  # ok: staged
    return state.apply_gradients(grads=jax.tree_util.tree_map(lambda g: g * scale, grads))


def log_progress(state):
    if state.step % 100 == 0:  # ok: eager code sees the real step
        print("step", int(state.step))


if __name__ == "__main__":
    import optax

    run = globals()  # the functions by name: what the calls pass stays out of the analysis above
    params = {"w": jnp.ones(2)}
    grads = {"w": jnp.ones(2)}
    plain = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))
    state = TrainState.create(
        apply_fn=lambda variables, x: x * variables["params"]["w"],
        params=params,
        tx=optax.sgd(0.1),
        batch_stats={"mean": jnp.float32(1.0)},
    )
    for hazard in (lambda: run["warmup_step"](plain, grads), lambda: run["stats_step"](state, grads)):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    assert int(run["looped"](plain, grads).step) == 3
    assert run["static_parts"](state, jnp.ones(2)).tolist() == [4.0, 4.0]
    stepped = run["masked_step"](plain, grads)
    assert int(stepped.step) == 1 and jnp.allclose(stepped.params["w"], 1.0 - 0.1 * 0.1)
    run["log_progress"](plain)
    print("ok")

"""`step` of flax's `TrainState` is a leaf of the pytree (measured: `measured.library_records`),
traced under `jit` in a module that only imports the class: `int()` on it raises."""

import jax
import optax
from flax.training.train_state import TrainState

LRS = [0.1, 0.01, 0.001]


def create(apply_fn, params):
    return TrainState.create(apply_fn=apply_fn, params=params, tx=optax.sgd(0.1))


def scheduled_step(state, grads):
    rate = LRS[min(int(state.step), 2)]  # error: JAX503
    return state.apply_gradients(grads=jax.tree_util.tree_map(lambda g: g * rate, grads))


scheduled_step = jax.jit(scheduled_step)


@jax.jit
def bounded_step(state, grads):
    rate = jax.numpy.asarray(LRS)[jax.numpy.minimum(state.step, 2)]  # ok: staged indexing
    if state.tx is None:  # ok: `tx` stays in the treedef
        return state
    return state.apply_gradients(grads=jax.tree_util.tree_map(lambda g: g * rate, grads))


def report(state):
    return f"step {int(state.step)}"  # ok: eager


if __name__ == "__main__":
    import jax.numpy as jnp

    state = create(None, {"w": jnp.ones(2)})
    grads = {"w": jnp.ones(2)}
    try:
        scheduled_step(state, grads)
    except jax.errors.ConcretizationTypeError:
        pass
    else:
        raise AssertionError("scheduled_step did not raise ConcretizationTypeError")
    stepped = bounded_step(state, grads)
    assert int(stepped.step) == 1 and jnp.allclose(stepped.params["w"], 1.0 - 0.1 * 0.1)
    assert report(stepped) == "step 1"
    print("ok")

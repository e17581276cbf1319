"""A schedule given to optax through flax's `TrainState`: `apply_gradients` runs the
optimizer's `update` inside the compiled step.
"""

import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState


def step_decay(step):
    return 1e-3 if step < 1000 else 1e-4  # error: JAX501


def create(params):
    return TrainState.create(apply_fn=None, params=params, tx=optax.adam(step_decay))


@jax.jit
def train_step(state, grads):
    return state.apply_gradients(grads=grads)


def main():
    state = create({"w": jnp.ones(2)})
    return train_step(state, {"w": jnp.ones(2)})


if __name__ == "__main__":
    try:
        main()
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("main() did not raise TracerBoolConversionError")
    print("ok")

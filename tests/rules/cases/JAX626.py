# flax's `TrainState.apply_gradients(self, *, grads, **kwargs)` takes the gradients by keyword
# only: given them by position, Python raises `TypeError` ("takes 1 positional argument but 2
# were given"), measured with flax beside JAX 0.10.2.
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

model = nn.Dense(1)
x = jnp.ones((4, 3))
state = train_state.TrainState.create(
    apply_fn=model.apply, params=model.init(jax.random.key(0), x)["params"], tx=optax.adam(1e-3)
)


def loss(params):
    return jnp.mean(model.apply({"params": params}, x) ** 2)


@jax.jit
def positional_step(state):
    grads = jax.grad(loss)(state.params)
    return state.apply_gradients(grads)  # error: JAX626


# near misses


@jax.jit
def keyword_step(state):
    grads = jax.grad(loss)(state.params)
    return state.apply_gradients(grads=grads)


if __name__ == "__main__":
    print(keyword_step(state).step)
    try:
        positional_step(state)
    except TypeError as error:
        print("TypeError:", str(error)[:60])
    else:
        raise AssertionError("expected TypeError")

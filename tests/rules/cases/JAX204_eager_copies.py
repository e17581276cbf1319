# Outside traced code too, some calls return an updated copy that a statement throws away:
# `eqx.nn.inference_mode(model)` (dropout stays on) and `state.apply_gradients(grads=...)` of a
# flax `TrainState` (the parameters never move). Measured with JAX 0.10.2, flax 0.12.8 and
# equinox 0.13.8. A receiver not known as a TrainState, and kept results, stay silent.
import equinox as eqx
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class CustomState(train_state.TrainState):
    epoch: int = 0


def evaluate(model, x):
    eqx.nn.inference_mode(model)  # error: JAX204
    return model(x, key=jax.random.key(1))


def fit(params, grads, steps):
    state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))
    for _ in range(steps):
        state.apply_gradients(grads=grads)  # error: JAX204
    return state


def fit_custom(params, grads):
    state = CustomState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))
    state.replace(epoch=1)  # error: JAX204
    return state


def fit_given(state, grads, steps):
    for _ in range(steps):
        state.apply_gradients(grads=grads)  # error: JAX204
    return state


# near misses


def evaluate_kept(model, x):
    model = eqx.nn.inference_mode(model)
    return model(x, key=jax.random.key(1))


def fit_kept(params, grads, steps):
    state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))
    for _ in range(steps):
        state = state.apply_gradients(grads=grads)
    return state


def unknown_receiver(trainer, grads):
    trainer.apply_gradients(grads=grads)  # a trainer of its own: it may update in place
    return trainer


def never_read_again(params, grads):
    state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))
    state.apply_gradients(grads=grads)


if __name__ == "__main__":
    net = eqx.nn.Dropout(0.5)
    out = evaluate(net, jnp.ones(8))
    assert not bool(jnp.all(out == 1.0))  # dropout still on: some elements zeroed or doubled
    assert bool(jnp.all(evaluate_kept(net, jnp.ones(8)) == 1.0))
    params = {"w": jnp.ones(2)}
    assert int(fit(params, params, 3).step) == 0  # the updates were lost
    assert int(fit_kept(params, params, 3).step) == 3
    assert fit_custom(params, params).epoch == 0
    given = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))
    assert int(fit_given(given, params, 3).step) == 0
    print("ok")

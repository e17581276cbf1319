# fix: unsafe
import jax.numpy as jnp
import optax


def reset_moment(params, grads):
    tx = optax.adam(1e-2)
    state = tx.init(params)
    updates, state = tx.update(grads, state, params)
    state[0].mu["w"][0] = 0.0  # forget the first moment
    return updates, state


if __name__ == "__main__":
    params = {"w": jnp.ones(3), "b": jnp.zeros(1)}
    grads = {"w": jnp.full(3, 0.5), "b": jnp.ones(1)}
    _, state = reset_moment(params, grads)
    assert float(state[0].mu["w"][0]) == 0.0
    print("ok")

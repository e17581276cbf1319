# Every leaf of the state an optax optimizer's `init` or `update` returns is a JAX array (the
# moments are `jnp.zeros_like` of the parameters), so item assignment into one raises
# `TypeError` (measured with JAX 0.10.2 and optax 0.2.8). Its dicts are the parameters', keyed
# by strings: a part reached by a string key and indexed otherwise is one of its arrays.
import jax.numpy as jnp
import optax


def reset_moment(params, grads):
    tx = optax.adam(1e-2)
    state = tx.init(params)
    updates, state = tx.update(grads, state, params)
    state[0].mu["w"][0] = 0.0  # error: JAX201
    return state


def reset_trace(params):
    tx = optax.sgd(0.1, momentum=0.9)
    state = tx.init(params)
    state[0].trace["b"][:] = 0.0  # error: JAX201
    return state


# near misses


def replace_moment(params):
    tx = optax.adam(1e-2)
    state = tx.init(params)
    state[0].mu["w"] = jnp.zeros(3)  # an entry of the dict: replaced, not written into
    return state


def rebound(params, stats):
    state = optax.adam(1e-2).init(params)
    state = stats  # bound to something else too: unknown
    state["w"][0] = 0.0
    return state


def raises(thunk):
    try:
        thunk()
    except TypeError:
        return True
    return False


if __name__ == "__main__":
    params = {"w": jnp.ones(3), "b": jnp.zeros(1)}
    grads = {"w": jnp.full(3, 0.5), "b": jnp.ones(1)}
    assert raises(lambda: reset_moment(params, grads))
    assert raises(lambda: reset_trace(params))
    assert replace_moment(params)[0].mu["w"].shape == (3,)
    rebound(params, {"w": [1.0, 2.0]})
    print("ok")

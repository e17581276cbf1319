# A jitted function's body runs only while JAX traces it, whoever calls it: an eager caller
# (even one that resets the counter) does not make its global assignment run per call.
import jax
import jax.numpy as jnp

num_updates = 0


@jax.jit
def sgd_update(params, grads):
    global num_updates
    num_updates += 1  # error: JAX104
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


def make_inputs():
    params = {"w": jnp.ones(3)}
    grads = {"w": jnp.full(3, 0.5)}
    return sgd_update, (params, grads)


def count_updates():
    global num_updates
    num_updates = 0
    params, grads = make_inputs()[1]
    for _ in range(3):
        params = sgd_update(params, grads)
    return num_updates  # 1, not 3


if __name__ == "__main__":
    assert count_updates() == 1  # the loop ran 3 updates; the counter moved once, at tracing
    print("ok")

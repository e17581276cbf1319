# `optax.apply_updates(params, grads)` adds the raw gradients while the optimizer's updates are
# dropped: the parameters climb the gradient (measured with optax 0.2.8: the loss rises).
import jax
import jax.numpy as jnp
import optax

opt = optax.sgd(0.1)


def loss(p):
    return jnp.sum((p - 2.0) ** 2)


@jax.jit
def step(params, state):
    grads = jax.grad(loss)(params)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, grads), state  # error: JAX210


def train(params, steps=3):
    state = opt.init(params)
    for _ in range(steps):
        grads = jax.grad(loss)(params)
        updates, state = opt.update(grads, state, params)
        params = optax.apply_updates(params, grads)  # error: JAX210
    return params


# near misses


@jax.jit
def good_step(params, state):
    grads = jax.grad(loss)(params)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state


def scaled_by_hand(params):
    grads = jax.grad(loss)(params)
    return optax.apply_updates(params, jax.tree.map(lambda g: -0.1 * g, grads))


def logged_step(params, state, log):
    grads = jax.grad(loss)(params)
    updates, state = opt.update(grads, state)
    log.append(optax.global_norm(updates))
    return optax.apply_updates(params, grads), state  # the updates are read: not this rule


if __name__ == "__main__":
    p0 = jnp.zeros(3)
    p1, _ = step(p0, opt.init(p0))
    assert float(loss(p1)) > float(loss(p0))
    assert float(loss(train(p0))) > float(loss(p0))
    p2, _ = good_step(p0, opt.init(p0))
    assert float(loss(p2)) < float(loss(p0))
    assert float(loss(scaled_by_hand(p0))) < float(loss(p0))

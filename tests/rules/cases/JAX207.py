# An optax optimizer's updates already carry the minus sign (-learning_rate * gradient):
# subtracted from the parameters, they climb the gradient and the loss rises (measured with
# optax 0.2.8). Transformations that scale by a positive factor (`optax.scale_by_adam`,
# `optax.scale(+lr)`) leave the sign to the author: subtracting is then right.
import jax
import jax.numpy as jnp
import optax


def loss(w):
    return jnp.sum((w - 3.0) ** 2)


sgd = optax.sgd(0.1)
adam = optax.adam(0.1)
clipped = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1))
positive = optax.chain(optax.scale_by_adam(), optax.scale(0.1))


def tree_mapped(w, steps=5):
    state = sgd.init(w)
    for _ in range(steps):
        updates, state = sgd.update(jax.grad(loss)(w), state)
        w = jax.tree.map(lambda p, u: p - u, w, updates)  # error: JAX207
    return w


@jax.jit
def step(w, state):
    updates, state = adam.update(jax.grad(loss)(w), state)
    return w - updates, state  # error: JAX207


def scaled(w, steps=5, lr=1.0):
    state = clipped.init(w)
    for _ in range(steps):
        grads = jax.grad(loss)(w)
        updates, state = clipped.update(grads, state)
        w = jax.tree_util.tree_map(lambda p, u: p - lr * u, w, updates)  # error: JAX207
    return w


# near misses


def added(w, steps=5):
    state = sgd.init(w)
    for _ in range(steps):
        updates, state = sgd.update(jax.grad(loss)(w), state)
        w = jax.tree.map(lambda p, u: p + u, w, updates)
    return optax.apply_updates(w, jnp.zeros(2))


def positive_steps(w, steps=5):
    state = positive.init(w)
    for _ in range(steps):
        updates, state = positive.update(jax.grad(loss)(w), state)
        w = w - updates  # positive scaling: the minus sign is the author's
    return w


def differences(w, updates):
    return w - updates  # not an optimizer's updates


if __name__ == "__main__":
    w = jnp.zeros(2)
    start = float(loss(w))
    assert float(loss(tree_mapped(w))) > start
    state = adam.init(w)
    after = w
    for _ in range(5):
        after, state = step(after, state)
    assert float(loss(after)) > start
    assert float(loss(scaled(w))) > start
    assert float(loss(added(w))) < start and float(loss(positive_steps(w))) < start
    print(differences(w, w))

# fix: unsafe
import jax
import jax.numpy as jnp
import optax


def loss(w):
    return jnp.sum((w - 3.0) ** 2)


opt = optax.sgd(0.1)


def train(w, steps=5):
    state = opt.init(w)
    for _ in range(steps):
        updates, state = opt.update(jax.grad(loss)(w), state)
        w = jax.tree.map(lambda p, u: p - u, w, updates)  # step
    return w


if __name__ == "__main__":
    w = jnp.zeros(2)
    assert float(loss(train(w))) < float(loss(w))

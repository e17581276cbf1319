# fix: unsafe
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
    return optax.apply_updates(params, grads), state  # the step


if __name__ == "__main__":
    p0 = jnp.zeros(3)
    p1, _ = step(p0, opt.init(p0))
    assert float(loss(p1)) < float(loss(p0))

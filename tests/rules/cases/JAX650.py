# Since flax 0.11 `nnx.Optimizer` (made with `wrt=`) takes `update(model, grads)`; the gradients
# alone raise `TypeError` (measured with flax 0.12.8). `nnx.ModelAndOptimizer` keeps the old call.
import jax.numpy as jnp
import optax
from flax import nnx

model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)


def loss_fn(m, x, y):
    return jnp.mean((m(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(grads)  # error: JAX650
    return loss


def eager_step(x, y):
    grads = nnx.grad(loss_fn)(model, x, y)
    optimizer.update(grads)  # error: JAX650


# near misses


@nnx.jit
def correct_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


def legacy_step(model, x, y):
    legacy = nnx.Optimizer(model, optax.sgd(0.1))  # flax < 0.11: it holds the model
    legacy.update(nnx.grad(loss_fn)(model, x, y))


def other_update(tracker, value):
    tracker.update(value)  # not an optimizer


both = nnx.ModelAndOptimizer(nnx.Linear(3, 1, rngs=nnx.Rngs(1)), optax.sgd(0.1))


@nnx.jit
def wrapped_step(both, x, y):
    grads = nnx.grad(loss_fn)(both.model, x, y)
    both.update(grads)


if __name__ == "__main__":
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 1))
    for raising in (lambda: train_step(model, optimizer, x, y), lambda: eager_step(x, y)):
        try:
            raising()
        except TypeError as error:
            assert "grads" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print(correct_step(model, optimizer, x, y))
    other_update({}, {"a": 1})
    wrapped_step(both, x, y)
    print("ok")

# A function passed to a parameter that a jitted function traces: not a JAX type, the call
# raises TypeError. Static parameters, pytrees of functions (tree_util.Partial) and equinox's
# filter_jit, which holds non-arrays static, take it.
import functools

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


def mse(pred, y):
    return jnp.mean((pred - y) ** 2)


def weird(fn):
    return fn


@weird
def decorated(pred, y):  # another library's decorator may make it anything
    return pred - y


square = lambda v: v * v  # noqa: E731


@jax.jit
def step(w, x, y, loss_fn):
    return jax.grad(lambda w: loss_fn(x @ w, y))(w)


@functools.partial(jax.jit, static_argnames=("loss_fn",))
def static_step(w, x, y, loss_fn):
    return jax.grad(lambda w: loss_fn(x @ w, y))(w)


@jax.jit
def apply(x, act=None):
    return x if act is None else act(x)


@jax.jit
def scale(x, factor):
    return x * factor


@eqx.filter_jit
def filtered(x, act):
    return act(x)


def run(w, x, y):
    step(w, x, y, mse)  # error: JAX611
    step(w, x, y, lambda p, t: jnp.abs(p - t).mean())  # error: JAX611
    step(w, x, y, functools.partial(mse))  # error: JAX611
    apply(x, act=jnp.tanh)  # error: JAX611
    apply(x, jax.nn.relu)  # error: JAX611
    apply(x, square)  # error: JAX611
    jax.jit(lambda v, f: f(v))(x, mse)  # error: JAX601, JAX611
    # near misses: a static parameter, a pytree, None, a number, another library's decorator
    static_step(w, x, y, mse)
    apply(x, jax.tree_util.Partial(jnp.tanh))  # a pytree: its function is static
    apply(x, None)
    scale(x, jnp.pi)  # a number
    apply(x, decorated)
    filtered(x, jnp.tanh)


@jax.jit
def mask_grads(grads, frozen):
    grads = dict(grads)
    for name in frozen:
        grads[name] = jnp.zeros_like(grads[name])
    return grads


@functools.partial(jax.jit, static_argnames=("frozen",))
def mask_static(grads, frozen):
    return {k: jnp.zeros_like(v) if k in frozen else v for k, v in grads.items()}


def freeze(grads):
    mask_grads(grads, frozen=("b",))  # error: JAX611
    mask_static(grads, ("b",))


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


@jax.jit
def train_step(params, opt_state, optimizer, x):
    grads = jax.grad(lambda p: jnp.sum((x @ p) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


@jax.jit
def predict(model, variables, x):
    return model.apply(variables, x)


@functools.partial(jax.jit, static_argnames=("model",))
def predict_static(model, variables, x):
    return model.apply(variables, x)


def train(params, x):
    optimizer = optax.sgd(0.1)
    net = Net()
    variables = net.init(jax.random.key(0), x)
    train_step(params, optimizer.init(params), optimizer, x)  # error: JAX611
    predict(net, variables, x)  # error: JAX611
    predict_static(net, variables, x)
    return optimizer


class Trainer:
    def __init__(self, head):
        self.head = head  # stored on self: whatever the caller gave

    def loss(self, pred, y):
        return jnp.mean((pred - y) ** 2)

    @property
    def scale(self):
        return 2.0

    def fit(self, w, x, y):
        step(w, x, y, self.loss)  # error: JAX611
        apply(x, self.head)
        scale(x, self.scale)


@jax.jit
def outer(w, x, y):
    return step(w, x, y, mse)  # error: JAX611


if __name__ == "__main__":
    w, x, y = jnp.ones(3), jnp.ones((4, 3)), jnp.zeros(4)
    static_step(w, x, y, mse)
    apply(x, jax.tree_util.Partial(jnp.tanh))
    apply(x, None)
    scale(x, jnp.pi)
    filtered(x, jnp.tanh)

# A module differentiated by `grad` and called in the loss: its result comes from its traced
# leaves, so `float()` of anything computed from it raises `ConcretizationTypeError`, even
# without `jit` (measured with JAX 0.10.2, flax 0.12.8, equinox 0.13.8). What the loss computes
# from its other, undifferentiated arguments stays concrete under a bare `grad`.
import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx


class Regressor(nnx.Module):
    def __init__(self, rngs):
        self.fc = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.fc(x)[:, 0]


def nnx_loss(model, x, y):
    loss = jnp.mean((model(x) - y) ** 2)
    return loss, {"loss_value": float(loss)}  # error: JAX503


def nnx_loss_target_scale(model, x, y):
    loss = jnp.mean((model(x) - y) ** 2)
    return loss, {"target_scale": float(jnp.abs(y).max())}  # `y` is not differentiated: concrete


def eqx_loss(model, x):
    out = model(x)
    return jnp.sum(out**2) * float(out.sum())  # error: JAX503


def eqx_batch_loss(model, xs):
    out = jax.vmap(model)(xs)
    return jnp.sum(out**2) * float(out.sum())  # error: JAX503


def eqx_loss_size(model, x):
    out = model(x)
    return jnp.sum(out**2) / float(x.shape[0])  # a shape: static


def main():
    x, y = jnp.ones((8, 3)), jnp.zeros(8)
    model = Regressor(nnx.Rngs(0))
    mlp = eqx.nn.Linear(3, 2, key=jax.random.key(0))
    scaled = nnx.value_and_grad(nnx_loss_target_scale, has_aux=True)(model, x, y)
    sized = eqx.filter_grad(eqx_loss_size)(mlp, x[0])
    return scaled, sized


def failing():
    x, y = jnp.ones((8, 3)), jnp.zeros(8)
    model = Regressor(nnx.Rngs(0))
    mlp = eqx.nn.Linear(3, 2, key=jax.random.key(1))
    return (
        lambda: nnx.value_and_grad(nnx_loss, has_aux=True)(model, x, y),
        lambda: eqx.filter_grad(eqx_loss)(mlp, x[0]),
        lambda: eqx.filter_grad(eqx_batch_loss)(mlp, x),
    )


if __name__ == "__main__":
    import sys

    (_, aux), _ = main()[0]
    assert aux["target_scale"] == 0.0
    for call in failing():
        try:
            call()
        except jax.errors.ConcretizationTypeError:
            pass
        else:
            sys.exit("float() of a differentiated result did not raise")
    print("ok")

# A function differentiated with respect to a parameter it never reads has a zero gradient
# everywhere (measured with JAX 0.10.2, flax 0.12.8 and equinox 0.13.8: each marked gradient is
# all zeros). Near misses read the argument, through a closure or a nested function too, or
# declare it unused (a leading underscore, `del`, a constant stub).
import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx


def loss(params, x):
    return jnp.sum((x @ params) ** 2)


def closes_over_outer(params, x):
    return jax.grad(lambda p: loss(params, x))(params)  # error: JAX509


def ignores_the_differentiated_position(params, x):
    def shifted(offset, p):  # error: JAX509
        return loss(params, x) + jnp.sum(p)

    return jax.grad(shifted)(1.0, params)


def value_and_grad_of_outer(params, x):
    return jax.value_and_grad(lambda p: loss(params, x))(params)  # error: JAX509


def nnx_closure(model, x):
    return nnx.grad(lambda m: jnp.sum(model(x) ** 2))(model)  # error: JAX509


def eqx_closure(model, x):
    return eqx.filter_grad(lambda m: jnp.sum(jax.vmap(model)(x) ** 2))(model)  # error: JAX509


# near misses


def reads_its_argument(params, x):
    return jax.grad(lambda p: loss(p, x))(params)


def second_argument(params, x):
    return jax.grad(lambda x_, p: loss(p, x_), argnums=1)(x, params)


def nested_reader(params, x):
    def outer(p):
        def inner():
            return loss(p, x)

        return inner()

    return jax.grad(outer)(params)


def declared_unused(params, x):
    return jax.grad(lambda _p: loss(params, x))(params)


def deleted(params, x):
    def zero_loss(p):
        del p
        return loss(params, x) * 0.0

    return jax.grad(zero_loss)(params)


def constant_stub(params):
    return jax.grad(lambda p: 0.0)(params)


def forwards_everything(params, x):
    def wrapper(*args):
        return loss(*args)

    return jax.grad(wrapper)(params, x)


if __name__ == "__main__":
    p, data = jnp.ones(3), jnp.ones((2, 3))
    assert bool(jnp.all(closes_over_outer(p, data) == 0.0))
    assert float(ignores_the_differentiated_position(p, data)) == 0.0  # `offset` was differentiated
    assert bool(jnp.all(value_and_grad_of_outer(p, data)[1] == 0.0))
    layer = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    assert bool(jnp.all(nnx_closure(layer, data)["kernel"][...] == 0.0))
    mlp = eqx.nn.Linear(3, 1, key=jax.random.key(0))
    assert bool(jnp.all(eqx_closure(mlp, data).weight == 0.0))
    assert not bool(jnp.all(reads_its_argument(p, data) == 0.0))
    assert not bool(jnp.all(second_argument(p, data) == 0.0))
    assert not bool(jnp.all(nested_reader(p, data) == 0.0))
    print(declared_unused(p, data), deleted(p, data), constant_stub(p), forwards_everything(p, data))
    print("ok")

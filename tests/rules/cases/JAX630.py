# Plain `jax.jit` traces every leaf of its arguments: an equinox `MLP` holds its activation
# functions, which are no JAX type, so `jit` raises `TypeError`; `eqx.filter_jit` keeps them
# static (measured with equinox beside JAX 0.10.2).
import equinox as eqx
import jax
import jax.numpy as jnp

key = jax.random.key(0)
x = jnp.ones(4)
mlp = eqx.nn.MLP(4, 4, 16, 2, activation=jax.nn.gelu, key=key)
linear = eqx.nn.Linear(4, 4, key=jax.random.key(1))


class Model(eqx.Module):
    body: eqx.nn.MLP

    def __init__(self, key):
        self.body = eqx.nn.MLP(4, 4, 8, 1, key=key)

    def __call__(self, x):
        return self.body(x)


@jax.jit
def forward(model, x):
    return model(x)


apply = jax.jit(lambda model, x: model(x))


@eqx.filter_jit
def filtered(model, x):
    return model(x)


@jax.jit
def closed_over(x):
    return mlp(x)


def decorated():
    return forward(mlp, x)  # error: JAX630


def wrapped_in_a_module():
    return forward(Model(key), x)  # error: JAX630


def assigned_jit():
    return apply(mlp, x)  # error: JAX630


def mlp_loss(model, inputs):
    return jnp.sum(model(inputs))


def differentiated():
    return jax.grad(mlp_loss)(mlp, x)  # error: JAX630


def value_and_differentiated():
    return jax.value_and_grad(mlp_loss)(mlp, x)  # error: JAX630


# near misses


def differentiated_by_input():
    return jax.grad(mlp_loss, argnums=1)(mlp, x)


def filter_differentiated():
    return eqx.filter_grad(mlp_loss)(mlp, x)


def arrays_only():
    return forward(linear, x)


def filter_jit():
    return filtered(mlp, x), filtered(Model(key), x)


def closure():
    return closed_over(x)


if __name__ == "__main__":
    arrays_only(), filter_jit(), closure(), differentiated_by_input(), filter_differentiated()
    for failing in (decorated, wrapped_in_a_module, assigned_jit, differentiated, value_and_differentiated):
        try:
            failing()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{failing.__name__}: expected TypeError")
    print("as labelled")

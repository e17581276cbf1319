# A linen module's `apply` (and `bind`) takes the variables, a dict of collections: given the
# `"params"` collection itself, flax finds no `"params"` in it and raises
# `ScopeCollectionNotFound`, or `ApplyScopeInvalidVariablesTypeError` where its entries are
# arrays (measured with flax beside JAX 0.10.2).
import flax.linen as nn
import jax
import jax.numpy as jnp

x = jnp.ones((1, 3))
model = nn.Dense(2)
variables = model.init(jax.random.key(0), x)
params = variables["params"]


class Checkpointed:
    """Not a linen module: its `apply` takes what it takes."""

    def apply(self, params, x):
        return x @ params["kernel"] + params["bias"]


def unwrapped():
    return model.apply(params, x)  # error: JAX622


def taken_on_the_spot():
    return model.apply(variables["params"], x)  # error: JAX622


def bound():
    return model.bind(params)(x)  # error: JAX622


def loss_fn(p, batch):
    return jnp.sum(model.apply(p, batch) ** 2)  # error: JAX622 (every call passes `params`)


def mse(p, batch):
    return jnp.mean(model.apply(p, batch))  # error: JAX622 (through `jax.value_and_grad`, bound)


def predict(p, batch):
    return model.apply(p, batch)  # error: JAX622 (the name rebound to its jitted function)


loss_and_grad = jax.value_and_grad(mse)
predict = jax.jit(predict)


def grad_of_loss():
    return jax.grad(loss_fn)(params, x)


def value_and_grad_of_mse():
    return loss_and_grad(params, x)


def jitted_predict():
    return predict(params, x)


# near misses


def mixed(p, batch):
    return model.apply(p, batch)  # one call passes the variables


def handed_on(p, batch):
    return model.apply(p, batch)  # its calls are out of sight


def mixed_calls():
    return mixed(variables, x), mixed({"params": params}, x)


def hand_on():
    return handed_on


def wrapped():
    return model.apply({"params": params}, x)


def whole():
    return model.apply(variables, x)


def other_apply():
    return Checkpointed().apply(params, x)


if __name__ == "__main__":
    print(wrapped().shape, whole().shape, other_apply().shape, mixed_calls()[0].shape)
    print(hand_on()(variables, x).shape)
    for failing in (unwrapped, taken_on_the_spot, bound, grad_of_loss, value_and_grad_of_mse, jitted_predict, lambda: mixed(params, x)):
        try:
            failing()
        except Exception as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected a flax scope error")

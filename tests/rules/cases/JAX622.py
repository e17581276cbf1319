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


# near misses


def wrapped():
    return model.apply({"params": params}, x)


def whole():
    return model.apply(variables, x)


def other_apply():
    return Checkpointed().apply(params, x)


if __name__ == "__main__":
    print(wrapped().shape, whole().shape, other_apply().shape)
    for failing in (unwrapped, taken_on_the_spot, bound):
        try:
            failing()
        except Exception as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected a flax scope error")

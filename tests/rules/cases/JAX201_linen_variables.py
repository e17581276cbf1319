# The variables a flax linen module's `init` returns are nested dicts keyed by strings, with JAX
# arrays for leaves: an entry indexed by a number or a slice is one of those arrays, and item
# assignment into it raises `TypeError` (measured with JAX 0.10.2 and flax 0.12.8).
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


model = Net()
x = jnp.ones((1, 3))
dense = nn.Dense(2)
dense_variables = dense.init(jax.random.key(4), x)
net_variables = model.init(jax.random.key(5), x)


def library_layer():
    dense_variables["params"]["bias"][0] = 1.0  # error: JAX201


def module_net():
    net_variables["params"]["Dense_0"]["kernel"][1] = 0.0  # error: JAX201


def zero_bias():
    variables = model.init(jax.random.key(0), x)
    variables["params"]["Dense_0"]["bias"][0] = 1.0  # error: JAX201
    return variables


def clear_row():
    variables = Net().init(jax.random.key(1), x)
    variables["params"]["Dense_0"]["kernel"][0, :] = 0.0  # error: JAX201
    return variables


# near misses


def replaced_layer():
    variables = model.init(jax.random.key(2), x)
    variables["params"]["Dense_0"] = {"bias": jnp.zeros(2), "kernel": jnp.zeros((3, 2))}
    return variables


def updated_bias():
    variables = model.init(jax.random.key(3), x)
    bias = variables["params"]["Dense_0"]["bias"]
    variables["params"]["Dense_0"]["bias"] = bias.at[0].set(1.0)
    return variables


class Plain:
    def init(self, key, x):
        return {"params": {"rows": [0.0, 0.0]}}


def plain_lists():
    state = Plain().init(None, x)
    state["params"]["rows"][0] = 1.0  # a list of a plain class: not a flax module
    return state


def raises(thunk):
    try:
        thunk()
    except TypeError:
        return True
    return False


if __name__ == "__main__":
    assert raises(zero_bias) and raises(clear_row) and raises(library_layer) and raises(module_net)
    model.apply(replaced_layer(), x)
    assert updated_bias()["params"]["Dense_0"]["bias"][0] == 1.0
    assert plain_lists()["params"]["rows"][0] == 1.0
    print("ok")

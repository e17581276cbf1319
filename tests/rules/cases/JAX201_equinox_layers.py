# The weights of an equinox layer are JAX arrays (measured: the `array_fields` of each layer in
# `eqx.nn`), immutable: item assignment into them raises `TypeError` (measured with JAX 0.10.2
# and equinox 0.13.8). `eqx.tree_at` builds the layer with the new weight.
import equinox as eqx
import jax
import jax.numpy as jnp

key = jax.random.key(0)
linear = eqx.nn.Linear(3, 2, key=key)
embed = eqx.nn.Embedding(10, 4, key=jax.random.key(1))


def zero_first_row():
    linear.weight[0] = 0.0  # error: JAX201
    return linear


def clear_padding():
    embed.weight[0, :] = 0.0  # error: JAX201
    return embed


# near misses


def rebuilt_row():
    weight = linear.weight.at[0].set(0.0)
    return eqx.tree_at(lambda layer: layer.weight, linear, weight)


def without_bias():
    unbiased = eqx.nn.Linear(3, 2, use_bias=False, key=jax.random.key(2))
    return unbiased.bias is None  # a field left None


def raises(thunk):
    try:
        thunk()
    except TypeError:
        return True
    return False


if __name__ == "__main__":
    assert raises(zero_first_row) and raises(clear_padding)
    assert float(jnp.abs(rebuilt_row().weight[0]).sum()) == 0.0
    assert without_bias()
    print("ok")

# `eqx.tree_at`'s `where` must select nodes: equinox calls it on leaf wrappers, and a
# computation on one raises (measured with equinox 0.13.8: `TypeError` for arithmetic and
# `jnp` functions, `AttributeError` for `.T`).
import equinox as eqx
import jax
import jax.numpy as jnp

model = eqx.nn.MLP(2, 2, 4, 1, key=jax.random.key(0))
weight = model.layers[0].weight


def shrink():
    return eqx.tree_at(lambda m: m.layers[0].weight * 0.5, model, weight * 0.5)  # error: JAX642


def negate():
    return eqx.tree_at(lambda m: -m.layers[0].weight, model, -weight)  # error: JAX642


def magnitude():
    return eqx.tree_at(lambda m: jnp.abs(m.layers[0].weight), model, jnp.abs(weight))  # error: JAX642


def transposed():
    return eqx.tree_at(lambda m: m.layers[0].weight.T, model, weight)  # error: JAX642


# near misses


def select():
    return eqx.tree_at(lambda m: m.layers[0].weight, model, weight * 0.5)


def select_both():
    bias = model.layers[0].bias
    return eqx.tree_at(lambda m: (m.layers[0].weight, m.layers[0].bias), model, (weight, bias))


def replace_fn():
    return eqx.tree_at(lambda m: m.layers[0].weight, model, replace_fn=lambda w: w * 0.5)


def raises(call):
    try:
        call()
    except (TypeError, AttributeError):
        return True
    return False


if __name__ == "__main__":
    for call in (shrink, negate, magnitude, transposed):
        assert raises(call)
    for call in (select, select_both, replace_fn):
        assert not raises(call)

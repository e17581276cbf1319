"""An array method runs the `jax.numpy` function of its name (`x.min(axis)` is `jnp.min(x, axis)`),
unless a class of this module defines a method of that name: the receiver may be one of them."""

import jax


@jax.tree_util.register_pytree_node_class
class Totals:
    def __init__(self, values):
        self.values = values

    def tree_flatten(self):
        return (self.values,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def sum(self, scale):
        return self.values.sum() * scale


@jax.jit
def scaled(totals, scale):
    return totals.sum(scale)  # ok: the class's own method, not `jnp.sum`


@jax.jit
def smallest(x, axis):
    return x.min(axis)  # error: JAX403 (no class here defines `min`)


@jax.jit
def total(x, axis):
    return x.sum(axis)  # ok: not reported, `Totals.sum` may be what this calls


@jax.jit
def lowered(x, i, v):
    return x.at[i].min(v)  # ok: an index update, not `jnp.min`


if __name__ == "__main__":
    import jax.numpy as jnp

    x = jnp.array([[3.0, 1.0], [2.0, 4.0]])
    try:
        smallest(x, 0)
    except jax.errors.ConcretizationTypeError:
        pass
    else:
        raise AssertionError("smallest did not raise ConcretizationTypeError")
    assert float(scaled(Totals(jnp.ones(3)), 2.0)) == 6.0
    assert float(total(Totals(jnp.ones(3)), 2.0)) == 6.0  # a `Totals`: its own `sum`
    assert lowered(jnp.ones(3), 1, 0.0).tolist() == [1.0, 0.0, 1.0]
    print("ok")

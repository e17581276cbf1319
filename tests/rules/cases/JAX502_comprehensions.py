# A comprehension's `range(n)` needs a Python int as a loop's does: a traced bound raises
# `TracerIntegerConversionError` under `jit` (measured with JAX 0.10.2). A custom pytree's
# `tree_flatten` says which attributes are traced (the children) and which stay Python values
# (the auxiliary data).
from functools import partial

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Polynomial:
    def __init__(self, coeffs, degree):
        self.coeffs = coeffs
        self.degree = degree

    def tree_flatten(self):
        return (self.coeffs, self.degree), None  # the degree is a child: traced

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@register_pytree_node_class
class Static:
    def __init__(self, coeffs, degree):
        self.coeffs = coeffs
        self.degree = degree

    def tree_flatten(self):
        return (self.coeffs,), (self.degree,)  # the degree is auxiliary data: static

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0], aux[0])


@jax.jit
def evaluate(poly, x):
    return sum(poly.coeffs[k] * x**k for k in range(poly.degree + 1))  # error: JAX502


@jax.jit
def powers(x, n):
    return jnp.stack([x**k for k in range(n)])  # error: JAX502


@jax.jit
def table(x, n):
    return {k: x * k for k in range(n)}  # error: JAX502


# near misses


@jax.jit
def evaluate_static(poly, x):
    return sum(poly.coeffs[k] * x**k for k in range(poly.degree + 1))


@partial(jax.jit, static_argnames="n")
def static_powers(x, n):
    return jnp.stack([x**k for k in range(n)])


@jax.jit
def by_shape(x):
    return jnp.stack([x[k] * 2 for k in range(x.shape[0])])


if __name__ == "__main__":
    x = jnp.float32(2.0)
    print(evaluate_static(Static(jnp.array([1.0, 2.0, 3.0]), 2), x), static_powers(x, 3), by_shape(jnp.ones(3)))
    for failing in (
        lambda: evaluate(Polynomial(jnp.array([1.0, 2.0, 3.0]), 2), x),
        lambda: powers(x, 3),
        lambda: table(x, 3),
    ):
        try:
            failing()
        except jax.errors.TracerIntegerConversionError:
            print("TracerIntegerConversionError")
        else:
            raise AssertionError("expected TracerIntegerConversionError")

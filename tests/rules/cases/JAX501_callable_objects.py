# A callable object handed to a transformation runs its `__call__` in the trace. `vmap`, `grad`
# and equinox's `filter_vmap` hash nothing, so any object is traced, dataclasses and equinox
# modules included; `filter_jit` splits an equinox module into its arrays (traced) and the rest
# (static). Measured with JAX 0.10.2: each marked line raises `TracerBoolConversionError`;
# `grad` alone traces with concrete values, where Python control flow works.
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp


class Clipper(eqx.Module):
    limit: float

    def __call__(self, x):
        if x > self.limit:  # error: JAX501
            return jnp.asarray(self.limit)
        return x


@dataclasses.dataclass
class Gate:
    threshold: float

    def __call__(self, x):
        if x.sum() > self.threshold:  # error: JAX501
            return x
        return -x


@dataclasses.dataclass(frozen=True)
class Hinge:
    margin: float

    def __call__(self, x):
        if x < self.margin:  # `grad` alone traces concretely: Python control flow works
            return self.margin - x
        return 0.0 * x


class Layer(eqx.Module):
    w: jax.Array
    use_bias: bool
    depth: int

    def __call__(self, x):
        if self.use_bias:  # a bool field: static under every transformation
            x = x + 1.0
        for _ in range(self.depth):  # an int field: static
            x = x * 2.0
        if self.w.shape[0] > 2:  # a shape: static
            x = x - 1.0
        return x


class Eager(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        if self.w.sum() > 0:  # closed over by `vmap`: a concrete array, not a tracer
            return x * self.w
        return x


if __name__ == "__main__":
    xs = jnp.array([0.5, 2.0])
    clip = lambda: eqx.filter_vmap(Clipper(1.0))(xs)  # noqa: E731
    gate = Gate(0.0)
    mapped = jax.vmap(gate)
    gated = lambda: mapped(jnp.ones((2, 3)))  # noqa: E731
    for hazard in (clip, gated):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    assert float(jax.grad(Hinge(1.0))(0.5)) == -1.0
    assert jnp.array_equal(jax.vmap(Layer(jnp.ones(3), True, 2))(jnp.ones((4, 3))), jnp.full((4, 3), 7.0))
    assert jnp.array_equal(eqx.filter_jit(Layer(jnp.ones(3), False, 1))(jnp.ones(3)), jnp.ones(3))
    assert jnp.array_equal(jax.vmap(Eager(jnp.ones(3)))(jnp.ones((4, 3))), jnp.ones((4, 3)))
    print("ok")

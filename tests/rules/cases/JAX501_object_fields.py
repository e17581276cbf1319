# An equinox module handed to a jitted function arrives with every leaf traced: its array
# fields are tracers in the methods the function calls (`model(x)`, `model.shift(x)`). Under
# `filter_jit` a Python float field stays static; its shape is static everywhere.
import equinox as eqx
import jax
import jax.numpy as jnp


class Scaler(eqx.Module):
    scale: jax.Array
    offset: float

    def __call__(self, x):
        if self.scale > 1.0:  # error: JAX501
            return x / self.scale
        return x

    def shift(self, x):
        return x + float(self.scale)  # error: JAX503

    def widen(self, x):
        if self.scale.ndim == 0:  # a shape: static
            return x
        return x * 2.0

    def nudge(self, x):
        if self.offset > 0:  # a Python float: kept static by filter_jit
            return x + self.offset
        return x


@jax.jit
def apply(model, x):
    return model(x)


@jax.jit
def apply_shift(model, x):
    return model.shift(x) + model.widen(x)


@eqx.filter_jit
def apply_nudge(model, x):
    return model.nudge(x)


if __name__ == "__main__":
    x = jnp.ones(2)
    model = Scaler(jnp.array(2.0), 0.5)
    assert jnp.array_equal(apply_nudge(model, x), jnp.full(2, 1.5))
    for hazard, error in [
        (lambda: apply(model, x), jax.errors.TracerBoolConversionError),
        (lambda: apply_shift(model, x), jax.errors.ConcretizationTypeError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    print("ok")

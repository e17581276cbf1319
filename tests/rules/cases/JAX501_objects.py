# An object of a class of the module passed to a jitted function runs its methods in the trace;
# a method of a pytree class (an equinox module, a registered dataclass) decorated with a
# transformation gets `self` with its array fields traced. Static fields and shapes stay Python
# values, and an object only ever used eagerly branches on concrete values.
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp


class Clip(eqx.Module):
    limit: float

    def __call__(self, x):
        if jnp.max(x) > self.limit:  # error: JAX501
            return jnp.clip(x, -self.limit, self.limit)
        return x


class Scale(eqx.Module):
    factor: float

    def __call__(self, x):
        if self.factor > 1.0:  # a Python float: filter_jit keeps it static
            return x * self.factor
        return x


@eqx.filter_jit
def run(model, x):
    return model(x)


class Policy(eqx.Module):
    w: jax.Array

    @eqx.filter_jit
    def __call__(self, obs):
        logits = obs @ self.w
        if logits.max() > 10.0:  # error: JAX501
            logits = logits - logits.max()
        return jax.nn.softmax(logits)

    @eqx.filter_jit
    def widened(self, obs):
        if self.w.shape[0] > 2:  # a shape: static
            return obs
        return obs * 2.0


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Linear:
    w: jax.Array
    scale: float = dataclasses.field(metadata=dict(static=True))

    @jax.jit
    def apply(self, x):
        y = x @ self.w
        if self.scale > 1.0:  # a static field
            y = y * self.scale
        if self.w.sum() > 0:  # error: JAX501
            y = -y
        return y


class Threshold(eqx.Module):
    level: jax.Array

    def __call__(self, x):
        if x.sum() > self.level:  # only ever called eagerly, on concrete arrays
            return x
        return -x


def evaluate(model, x):
    return model(x)


if __name__ == "__main__":
    x = jnp.arange(3.0)
    assert jnp.array_equal(run(Scale(2.0), x), 2.0 * x)
    policy = Policy(jnp.ones((3, 2)))
    assert jnp.array_equal(policy.widened(x), x)
    assert jnp.array_equal(evaluate(Threshold(jnp.float32(1.0)), x), x)
    for hazard in (
        lambda: run(Clip(1.0), x),
        lambda: policy(x),
        lambda: Linear(jnp.ones((3, 2)), 2.0).apply(x),
    ):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    print("ok")

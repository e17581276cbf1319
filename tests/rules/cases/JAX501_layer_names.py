# A flax or equinox layer bound to a name (a local in `@nn.compact`, a module-level model) or
# called where it is made returns an array: in traced code, a tracer. The same layer called
# eagerly, or a layer's shape, says nothing traced.
import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp


class Local(nn.Module):
    @nn.compact
    def __call__(self, x):
        dense = nn.Dense(3)
        y = dense(x)
        if y.sum() > 0:  # error: JAX501
            return y
        return -y


class Inline(nn.Module):
    @nn.compact
    def __call__(self, x):
        y = nn.Dense(3)(x)
        return int(y[0])  # error: JAX503


class ShapeOnly(nn.Module):
    @nn.compact
    def __call__(self, x):
        y = nn.Dense(3)(x)
        if y.shape[0] > 2:  # a shape: static
            return y
        return -y


MLP = eqx.nn.MLP(2, 2, 4, 2, key=jax.random.key(0))


@jax.jit
def forward(x):
    y = MLP(x)
    if y[0] > 0:  # error: JAX501
        return y
    return -y


def evaluate(x):
    y = MLP(x)
    if y[0] > 0:  # called eagerly: a concrete array
        return y
    return -y


if __name__ == "__main__":
    x = jnp.ones(2)
    for cls, error in ((Local, jax.errors.TracerBoolConversionError), (Inline, jax.errors.ConcretizationTypeError)):
        module = cls()
        run = lambda: jax.jit(module.apply)(module.init(jax.random.key(0), x), x)  # noqa: E731
        try:
            run()
        except error:
            pass
        else:
            raise AssertionError(f"{cls.__name__} did not raise {error.__name__}")
    module = ShapeOnly()
    assert jax.jit(module.apply)(module.init(jax.random.key(0), x), x).shape == (3,)
    try:
        forward(x)
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("forward did not raise TracerBoolConversionError")
    y = MLP(x)
    assert jnp.array_equal(evaluate(x), y if y[0] > 0 else -y)
    print("ok")

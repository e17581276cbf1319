# A flax linen module with parameters runs only bound to the variables `init` made: called
# directly it raises `CallCompactUnboundModuleError` (a module set up in `setup`:
# `AttributeError`), measured with flax beside JAX 0.10.2. Inside a module's methods, in helpers
# they call, through `bind`, and for a module without parameters, the call is fine.
import flax.linen as nn
import jax
import jax.numpy as jnp


class Encoder(nn.Module):
    features: int = 8

    @nn.compact
    def __call__(self, x):
        return nn.tanh(mlp(x, self.features))


class Doubler(nn.Module):
    def __call__(self, x):
        return x * 2


def mlp(x, features):
    return nn.Dense(features)(x)  # made and called inside Encoder's compact method: fine


def encode(x):
    enc = Encoder()
    return enc(x)  # error: JAX621


def dense_on_the_spot(x):
    return nn.Dense(2)(x)  # error: JAX621


class AutoEncoder(nn.Module):
    def setup(self):
        self.encoder = nn.Dense(2)
        self.decoder = nn.Dense(5)

    def __call__(self, x):
        return self.decoder(self.encoder(x))


def codes(x):
    model = AutoEncoder()
    variables = model.init(jax.random.key(0), x)
    return model.encoder.apply({"params": variables["params"]["encoder"]}, x)  # error: JAX621


# near misses


def bound_codes(x):
    model = AutoEncoder()
    variables = model.init(jax.random.key(0), x)
    return model.bind(variables).encoder(x)


def bound(x):
    enc = Encoder()
    variables = enc.init(jax.random.key(0), x)
    return enc.bind(variables)(x), enc.apply(variables, x)


def no_parameters(x):
    return Doubler()(x)


x0 = jnp.ones((2, 5))

if __name__ == "__main__":
    from flax.errors import CallCompactUnboundModuleError

    assert bound(x0)[1].shape == (2, 8) and no_parameters(x0).shape == (2, 5) and bound_codes(x0).shape == (2, 2)
    first, second = bound(x0)
    assert jnp.allclose(first, second)
    assert jnp.array_equal(no_parameters(x0), 2 * x0)
    try:  codes(x0)  # noqa: E701
    except AttributeError:  pass  # noqa: E701
    else:  raise AssertionError("codes(x0) did not raise AttributeError")  # noqa: E701
    try:  encode(x0)  # noqa: E701
    except CallCompactUnboundModuleError:  pass  # noqa: E701
    else:  raise AssertionError("encode(x0) did not raise CallCompactUnboundModuleError")  # noqa: E701
    try:  dense_on_the_spot(x0)  # noqa: E701
    except CallCompactUnboundModuleError:  pass  # noqa: E701
    else:  raise AssertionError("dense_on_the_spot(x0) did not raise CallCompactUnboundModuleError")  # noqa: E701
    try:  nn.LayerNorm()(x0)  # error: JAX621
    except CallCompactUnboundModuleError:
        pass
    else:
        raise AssertionError("nn.LayerNorm()(x0) did not raise CallCompactUnboundModuleError")
    print("ok")

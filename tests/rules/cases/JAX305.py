# A dropout key the module stored once, when it was built, hands the layer the same key on every
# call: the same units are dropped every time (measured with equinox 0.13.8).
import equinox as eqx
import jax
import jax.numpy as jnp


class NoisyMLP(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout
    key: jax.Array

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.linear = eqx.nn.Linear(8, 8, key=k1)
        self.dropout = eqx.nn.Dropout(0.5)
        self.key = k2

    def __call__(self, x):
        return self.dropout(self.linear(x), key=self.key)  # error: JAX305

    def features(self, x):
        return eqx.nn.Dropout(p=0.2)(x, key=self.key)  # error: JAX305


# near misses


class KeyedMLP(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(8, 8, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key):
        return self.dropout(self.linear(x), key=key)


class Evaluating(eqx.Module):
    dropout: eqx.nn.Dropout
    key: jax.Array

    def __init__(self, key):
        self.dropout = eqx.nn.Dropout(0.5, inference=True)
        self.key = key

    def __call__(self, x):
        return self.dropout(x, key=self.key)  # inference mode: the key is not used


if __name__ == "__main__":
    x = jnp.ones(8)
    model = NoisyMLP(jax.random.key(0))
    outs = [model(x) for _ in range(3)]
    assert all(jnp.array_equal(outs[0] == 0, o == 0) for o in outs)
    keys = jax.random.split(jax.random.key(1), 3)
    keyed = KeyedMLP(jax.random.key(0))
    masks = [keyed(x, key=k) == 0 for k in keys]
    assert not all(jnp.array_equal(masks[0], m) for m in masks)
    print(model.features(x).shape, Evaluating(jax.random.key(2))(x).shape)

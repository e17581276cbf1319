# An equinox layer built with `key=` draws its initial weights from that key: two layers built
# from one key come out identical (measured by tools/measure_jax_api.py: built twice from one
# key, equal; from another key, not). Layers built from keys split apart differ.
import equinox as eqx
import jax
import jax.numpy as jnp


class TwoTower(eqx.Module):
    left: eqx.nn.Linear
    right: eqx.nn.Linear

    def __init__(self, key):
        k_left, k_right = jax.random.split(key)
        self.left = eqx.nn.Linear(4, 4, key=k_left)
        self.right = eqx.nn.Linear(4, 4, key=k_left)  # error: JAX301

    def __call__(self, x):
        return self.left(x) - self.right(x)


def encoder_and_noise(key):
    encoder = eqx.nn.MLP(4, 4, 8, 2, key=key)
    noise = jax.random.normal(key, (4,))  # error: JAX301
    return encoder, noise


# near misses


class SplitTowers(eqx.Module):
    left: eqx.nn.Linear
    right: eqx.nn.Linear

    def __init__(self, key):
        k_left, k_right = jax.random.split(key)
        self.left = eqx.nn.Linear(4, 4, key=k_left)
        self.right = eqx.nn.Linear(4, 4, key=k_right)

    def __call__(self, x):
        return self.left(x) - self.right(x)


def dropout_twice(x, key):
    dropout = eqx.nn.Dropout(0.5)  # takes its key when called, not when built
    first, second = jax.random.split(key)
    return dropout(x, key=first), dropout(x, key=second)


if __name__ == "__main__":
    assert bool(jnp.allclose(TwoTower(jax.random.key(1))(jnp.ones(4)), 0.0))  # the towers are one
    assert not bool(jnp.allclose(SplitTowers(jax.random.key(1))(jnp.ones(4)), 0.0))
    print(encoder_and_noise(jax.random.key(0))[1], dropout_twice(jnp.ones(4), jax.random.key(0)))

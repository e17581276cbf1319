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


class Residual(eqx.Module):
    dropout: eqx.nn.Dropout

    def __init__(self):
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, key):
        h = self.dropout(x, key=key)
        return h + self.dropout(x, key=key)  # error: JAX301


def same_mask_twice(x, key):
    dropout = eqx.nn.Dropout(0.5)  # a dropout's call draws its mask from the key
    return dropout(x, key=key), dropout(x, key=key)  # error: JAX301


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


def inference_twice(x, key):
    dropout = eqx.nn.Dropout(0.5, inference=True)
    return dropout(x, key=key), dropout(x, key=key)


def dropout_twice(x, key):
    dropout = eqx.nn.Dropout(0.5)  # takes its key when called, not when built
    first, second = jax.random.split(key)
    return dropout(x, key=first), dropout(x, key=second)


if __name__ == "__main__":
    assert bool(jnp.allclose(TwoTower(jax.random.key(1))(jnp.ones(4)), 0.0))  # the towers are one
    assert not bool(jnp.allclose(SplitTowers(jax.random.key(1))(jnp.ones(4)), 0.0))
    first, second = same_mask_twice(jnp.ones(8), jax.random.key(0))
    assert bool(jnp.array_equal(first, second))  # the same mask
    inference_twice(jnp.ones(8), jax.random.key(0))
    assert bool(
        jnp.allclose(
            Residual()(jnp.ones(8), jax.random.key(2)),
            2 * Residual().dropout(jnp.ones(8), key=jax.random.key(2)),
        )
    )
    print(encoder_and_noise(jax.random.key(0))[1], dropout_twice(jnp.ones(4), jax.random.key(0)))

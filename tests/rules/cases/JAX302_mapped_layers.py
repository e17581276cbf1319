# An equinox `Dropout` called under `vmap` with a key the mapped function closes over draws
# one mask, shaped like the example, for the whole batch: every example is dropped in the same
# places (measured with JAX 0.10.2 and equinox 0.13.8).
import equinox as eqx
import jax
import jax.numpy as jnp

drop = eqx.nn.Dropout(0.5)


def dropped_batch(batch, key):
    return jax.vmap(lambda x: drop(x, key=key))(batch)  # error: JAX302


def dropped_rows(batch, key):
    def row(x):
        return drop(x, key=key) * 2.0

    return jax.vmap(row)(batch)  # error: JAX302


# near misses


def dropped_per_example(batch, key):
    keys = jax.random.split(key, batch.shape[0])
    return jax.vmap(lambda x, k: drop(x, key=k))(batch, keys)


def evaluated_batch(batch, key):
    return jax.vmap(lambda x: drop(x, key=key, inference=True))(batch)


if __name__ == "__main__":
    batch = jnp.ones((4, 8))
    out = dropped_batch(batch, jax.random.key(0))
    assert bool(jnp.all(out == out[0]))  # the same mask for every example
    out = dropped_rows(batch, jax.random.key(1))
    assert bool(jnp.all(out == out[0]))
    out = dropped_per_example(batch, jax.random.key(2))
    assert not bool(jnp.all(out == out[0]))
    assert bool(jnp.all(evaluated_batch(batch, jax.random.key(3)) == batch))
    print("ok")

# `jax.random.split(key, n)` returns an array of keys; a function that takes one key raises
# `ValueError` given that array ("normal accepts a single key, but was given a key array of
# shape (3,)", measured with JAX 0.10.2 for typed and legacy keys, eagerly and under `jit`).
import jax

key = jax.random.key(0)
layer_keys = jax.random.split(key, 3)


def dropout_mask():
    return jax.random.bernoulli(layer_keys, 0.9, (4,))  # error: JAX308


def noise(key):
    return jax.random.normal(jax.random.split(key), (2,))  # error: JAX308


@jax.jit
def folded(key):
    keys = jax.random.split(key, 4)
    return jax.random.fold_in(keys, 1)  # error: JAX308


def legacy(seed):
    keys = jax.random.split(jax.random.PRNGKey(seed), 3)
    return jax.random.uniform(keys, (2,))  # error: JAX308


# near misses


def indexed():
    return jax.random.bernoulli(layer_keys[0], 0.9, (4,))


def unpacked(key):
    key, sub = jax.random.split(key)
    return jax.random.normal(sub, (2,))


def mapped():
    return jax.vmap(lambda k: jax.random.normal(k, (2,)))(layer_keys)


def raw_bits():
    return jax.random.key_data(layer_keys)


def raises(call):
    try:
        call()
    except ValueError as error:
        return "single key" in str(error)
    return False


if __name__ == "__main__":
    for call in (dropout_mask, lambda: noise(key), lambda: folded(key), lambda: legacy(0)):
        assert raises(call)
    for call in (indexed, lambda: unpacked(key), mapped, raw_bits):
        assert not raises(call)

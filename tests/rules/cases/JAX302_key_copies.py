# A batch made of copies of one key (`[key] * n`, `[key, key]`, `jnp.repeat(key[None], n)`,
# `jnp.stack([key] * n)`, `dict.fromkeys(names, key)`, `itertools.repeat(key)`): each of its keys is that key, so drawing from each draws the same
# numbers (measured with JAX 0.10.2).
import itertools

import jax
import jax.numpy as jnp

SIZES = [(4, 8), (8, 8), (8, 8)]


def layer_noise(key):
    out = []
    for k in [key] * 3:
        out.append(jax.random.normal(k, (2,)))  # error: JAX302
    return out


def init_layers(key):
    params = []
    for k, (n_in, n_out) in zip([key] * len(SIZES), SIZES):
        params.append(jax.random.normal(k, (n_in, n_out)))  # error: JAX302
    return params


def comprehension_noise(key):
    return [jax.random.uniform(k, (2,)) for k in [key, key]]  # error: JAX302


def two_items(key):
    keys = [key, key]
    first = jax.random.normal(keys[0], (2,))
    second = jax.random.normal(keys[1], (2,))  # error: JAX301
    return first, second


def whole_then_item(key):
    keys = jax.random.split(key, 3)
    drawn = jax.vmap(lambda k: jax.random.randint(k, (), 0, 100))(keys)
    again = jax.random.randint(keys[0], (), 0, 100)  # error: JAX301
    return drawn, again


def augment(key, image):
    return image + jax.random.normal(key, image.shape)


def augment_batch(key, images):
    keys = jnp.repeat(key[None], images.shape[0], axis=0)  # error: JAX302
    return jax.vmap(augment)(keys, images)


def stacked_batch(key, images):
    keys = jnp.stack([key] * images.shape[0])  # error: JAX302
    return jax.vmap(augment)(keys, images)


def layer_keys_by_name(key):
    keys = dict.fromkeys(("encoder", "decoder"), key)
    return {name: jax.random.normal(k, (2,)) for name, k in keys.items()}  # error: JAX302


def named_layer_keys(key):
    keys = dict.fromkeys(("encoder", "decoder"), key)
    first = jax.random.normal(keys["encoder"], (2,))
    return first, jax.random.normal(keys["decoder"], (2,))  # error: JAX301


def repeated_layer_keys(key):
    out = []
    for (m, n), k in zip(SIZES, itertools.repeat(key)):
        out.append(jax.random.normal(k, (m, n)))  # error: JAX302
    return out


# near misses


def split_by_name(key):
    keys = dict(zip(("encoder", "decoder"), jax.random.split(key)))
    return {name: jax.random.normal(k, (2,)) for name, k in keys.items()}


def split_noise(key):
    out = []
    for k in jax.random.split(key, 3):
        out.append(jax.random.normal(k, (2,)))  # a key of its own each time
    return out


def split_comprehension(key):
    return [jax.random.uniform(k, (2,)) for k in jax.random.split(key, 2)]


def two_keys(key):
    first_key, second_key = jax.random.split(key)
    return [jax.random.normal(k, (2,)) for k in [first_key, second_key]]


def folded_batch(key, images):
    keys = jnp.repeat(key[None], images.shape[0], axis=0)  # folded with the index below
    indices = jnp.arange(images.shape[0])
    return jax.vmap(lambda k, i, x: augment(jax.random.fold_in(k, i), x))(keys, indices, images)


def split_batch(key, images):
    return jax.vmap(augment)(jax.random.split(key, images.shape[0]), images)


if __name__ == "__main__":
    noise = layer_noise(jax.random.key(1))
    assert all(jnp.array_equal(n, noise[0]) for n in noise)  # identical draws
    params = init_layers(jax.random.key(2))
    assert jnp.array_equal(params[1], params[2])
    pair = comprehension_noise(jax.random.key(3))
    assert jnp.array_equal(pair[0], pair[1])
    first, second = two_items(jax.random.key(4))
    assert jnp.array_equal(first, second)
    drawn, again = whole_then_item(jax.random.key(12))
    assert drawn[0] == again  # the batch consumed its first key already
    images = jnp.zeros((4, 3))
    for batch in (augment_batch(jax.random.key(5), images), stacked_batch(jax.random.key(6), images)):
        assert jnp.array_equal(batch, jnp.broadcast_to(batch[0], batch.shape))  # every example alike
    raw = augment_batch(jax.random.PRNGKey(0), images)  # raw uint32 keys too
    assert jnp.array_equal(raw, jnp.broadcast_to(raw[0], raw.shape))
    distinct = split_noise(jax.random.key(7))
    assert not jnp.array_equal(distinct[0], distinct[1])
    drawn = split_comprehension(jax.random.key(8))
    assert not jnp.array_equal(drawn[0], drawn[1])
    apart = two_keys(jax.random.key(9))
    assert not jnp.array_equal(apart[0], apart[1])
    for batch in (folded_batch(jax.random.key(10), images), split_batch(jax.random.key(11), images)):
        assert not jnp.array_equal(batch[0], batch[1])
    by_name = layer_keys_by_name(jax.random.key(13))
    assert jnp.array_equal(by_name["encoder"], by_name["decoder"])
    assert jnp.array_equal(*named_layer_keys(jax.random.key(14)))
    by_name = split_by_name(jax.random.key(15))
    assert not jnp.array_equal(by_name["encoder"], by_name["decoder"])
    repeated = repeated_layer_keys(jax.random.key(16))
    assert jnp.array_equal(repeated[1], repeated[2])
    print("ok")

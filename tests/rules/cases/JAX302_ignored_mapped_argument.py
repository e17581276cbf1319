# A function mapped by `vmap` (or `pmap`) that never reads the argument it is mapped over, and
# draws from one key (passed unmapped, or closed over): every element computes the same thing
# (measured with JAX 0.10.2: the ensemble members below are identical). An equinox `Dropout`
# called with an unmapped key draws one mask shaped like its mapped input, shared by the batch.
import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp

model = nn.Dense(2)
x = jnp.ones((1, 3))
drop = eqx.nn.Dropout(p=0.5)
frozen_drop = eqx.nn.Dropout(p=0.5, inference=True)


def ensemble_init(key):
    members = jax.vmap(lambda k, _: model.init(k, x), in_axes=(None, 0))(key, jnp.arange(4))  # error: JAX302
    kernels = members["params"]["kernel"]
    assert jnp.array_equal(kernels[0], kernels[3])
    return members


def draw_per_member(key):
    draws = jax.vmap(lambda _: jax.random.normal(key, (3,)))(jnp.arange(4))  # error: JAX302
    assert jnp.array_equal(draws[0], draws[1])
    return draws


def member(key, index):
    del index
    return jax.random.uniform(key, (2,))


def by_name(key):
    draws = jax.vmap(member, in_axes=(None, 0))(key, jnp.arange(3))  # error: JAX302
    assert jnp.array_equal(draws[0], draws[2])
    return draws


def batch_dropout(xs, key):
    masked = jax.vmap(lambda xi, k: drop(xi, key=k), in_axes=(0, None))(xs, key)  # error: JAX302
    assert jnp.array_equal(masked[0], masked[1])
    return masked


# near misses


def ensemble_init_split(key):
    keys = jax.random.split(key, 4)
    members = jax.vmap(lambda k: model.init(k, x))(keys)
    kernels = members["params"]["kernel"]
    assert not jnp.array_equal(kernels[0], kernels[3])
    return members


def draw_folded(key):
    draws = jax.vmap(lambda i: jax.random.normal(jax.random.fold_in(key, i), (3,)))(jnp.arange(4))
    assert not jnp.array_equal(draws[0], draws[1])
    return draws


def constant_rows(n):
    return jax.vmap(lambda _: jnp.zeros(3))(jnp.arange(n))  # no key: broadcasting on purpose


def batch_dropout_split(xs, key):
    keys = jax.random.split(key, xs.shape[0])
    masked = jax.vmap(lambda xi, k: drop(xi, key=k))(xs, keys)
    assert not jnp.array_equal(masked[0], masked[1])
    return masked


def batch_dropout_inference(xs, key):
    return jax.vmap(lambda xi, k: frozen_drop(xi, key=k), in_axes=(0, None))(xs, key)


def batch_dropout_switched(xs, key):
    return jax.vmap(lambda xi, k: drop(xi, key=k, inference=True), in_axes=(0, None))(xs, key)


ensemble_init(jax.random.key(0))
draw_per_member(jax.random.key(1))
by_name(jax.random.key(2))
batch_dropout(jnp.ones((4, 10)), jax.random.key(3))
ensemble_init_split(jax.random.key(0))
draw_folded(jax.random.key(1))
constant_rows(3)
batch_dropout_split(jnp.ones((4, 10)), jax.random.key(3))
batch_dropout_inference(jnp.ones((4, 10)), jax.random.key(3))
batch_dropout_switched(jnp.ones((4, 10)), jax.random.key(3))


if __name__ == "__main__":
    xs = jnp.ones((4, 10))
    assert jnp.array_equal(batch_dropout_inference(xs, jax.random.key(3)), xs)
    assert jnp.array_equal(batch_dropout_switched(xs, jax.random.key(3)), xs)
    assert constant_rows(3).shape == (3, 3)
    print("ok")

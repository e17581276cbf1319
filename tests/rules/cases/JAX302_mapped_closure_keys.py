# A function mapped by `vmap` that draws noise shaped like its example from a key it closes
# over: the key is not mapped, so every example gets the same noise (measured with JAX 0.10.2:
# the rows below are identical). A draw of a fixed shape may be meant to be shared by the batch.
import equinox as eqx
import jax
import jax.numpy as jnp

noise_key = jax.random.key(0)
mask_key = jax.random.key(1)
projection_key = jax.random.key(2)
uniform_key = jax.random.key(4)


def add_noise(x):
    return x + jax.random.normal(noise_key, x.shape)


@jax.vmap
def dropout(x):
    keep = jax.random.bernoulli(mask_key, 0.5, x.shape)
    return jnp.where(keep, x / 0.5, 0.0)


def project(x):
    w = jax.random.normal(projection_key, (3, 3))  # a fixed projection, the same for every example
    return w @ x


def add_own_noise(x, key):
    return x + jax.random.normal(key, x.shape)


def check_unmapped_key():
    key = jax.random.key(5)
    noisy = jax.vmap(add_own_noise, in_axes=(0, None))(jnp.zeros((4, 3)), key)  # error: JAX302
    assert jnp.allclose(noisy[0], noisy[1])
    shared = jax.vmap(project_with, in_axes=(0, None))(jnp.ones((4, 3)), jax.random.key(6))  # shared
    assert jnp.allclose(shared[0], shared[1])


def project_with(x, key):
    return jax.random.normal(key, (3, 3)) @ x


def check_noise():
    noisy = jax.vmap(add_noise)(jnp.zeros((4, 3)))  # error: JAX302
    assert jnp.allclose(noisy[0], noisy[1])


def check_filtered_noise():
    noisy = eqx.filter_vmap(lambda x: x + jax.random.uniform(uniform_key, x.shape))(jnp.zeros((4, 3)))  # error: JAX302
    assert jnp.allclose(noisy[0], noisy[1])


if __name__ == "__main__":
    check_noise()
    check_unmapped_key()
    check_filtered_noise()
    dropped = dropout(jnp.ones((4, 3)))  # error: JAX302
    assert jnp.allclose(dropped[0], dropped[1])
    print(jax.vmap(project)(jnp.ones((4, 3))))
    own = jax.vmap(add_own_noise)(jnp.zeros((4, 3)), jax.random.split(jax.random.key(3), 4))
    assert not jnp.allclose(own[0], own[1])

# Two keys of one `jax.random.split`, or made from two int seeds, have the same shape and type: a
# jitted function called with one, then the other, runs the program compiled for the first, with
# the global it read then (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

KEEP_PROB = 0.5
SCALE = 2.0
SHIFT = 1.0


@jax.jit
def dropout(key, x):
    mask = jax.random.bernoulli(key, KEEP_PROB, x.shape)  # error: JAX103
    return jnp.where(mask, x / KEEP_PROB, 0.0)


@jax.jit
def shifted_noise(key, x):
    return x + SHIFT + jax.random.normal(key, x.shape)  # error: JAX103


@jax.jit
def scaled_noise(key, x):
    return x + SCALE * jax.random.normal(key, x.shape)  # another shape each call: traced anew


if __name__ == "__main__":
    x = jnp.ones(64)
    k_train, k_eval = jax.random.split(jax.random.key(0))
    dropout(k_train, x)
    KEEP_PROB = 1.0
    assert int(jnp.sum(dropout(k_eval, x) == 0.0)) > 0  # still dropping
    before = shifted_noise(jax.random.key(2), x)
    SHIFT = 100.0
    assert float(jnp.max(shifted_noise(jax.random.key(3), x))) < 50.0  # still the old SHIFT
    k_small, k_large = jax.random.split(jax.random.key(1))
    small = scaled_noise(k_small, jnp.zeros(4))
    SCALE = 0.0
    assert bool(jnp.all(scaled_noise(k_large, jnp.zeros(8)) == 0.0))  # read again
    print("ok")

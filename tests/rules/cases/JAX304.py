# A typed key (`jax.random.key`, `wrap_key_data`, and what `split`/`fold_in` make from one) has
# a key dtype: arithmetic on it raises `TypeError` ("add does not accept dtypes key<fry>,
# int32", measured with JAX 0.10.2). A legacy `PRNGKey` is a uint32 array, and its data
# (`key_data`) is one too: both take arithmetic.
import jax
import jax.numpy as jnp

SEED = 3


def per_step(steps):
    key = jax.random.key(SEED)
    out = []
    for step in range(steps):
        out.append(jax.random.normal(key + step))  # error: JAX304
    return out


def scaled_subkey(seed):
    sub = jax.random.split(jax.random.key(seed))[0]
    return sub * 2  # error: JAX304


def folded_offset(seed):
    base = jax.random.key(seed)
    return 1 + jax.random.fold_in(base, 1)  # error: JAX304


def wrapped(data):
    key = jax.random.wrap_key_data(data)
    return jnp.add(key, 1)  # error: JAX304


def negated(seed):
    key = jax.random.key(seed)
    return -key  # error: JAX304


@jax.jit
def traced_offset(seed):
    key = jax.random.key(seed)
    return jax.random.normal(key ^ 1)  # error: JAX304


# near misses


def legacy(steps):
    key = jax.random.PRNGKey(SEED)
    return [jax.random.normal(key + step) for step in range(steps)]


def data_offset(seed):
    return jax.random.key_data(jax.random.key(seed)) + 1


def rebound(seed):
    key = jax.random.key(seed)
    key = jax.random.key_data(key)
    return key + 1


def folded(steps):
    key = jax.random.key(SEED)
    return [jax.random.normal(jax.random.fold_in(key, step)) for step in range(steps)]


if __name__ == "__main__":
    for hazard in (
        lambda: per_step(2),
        lambda: scaled_subkey(0),
        lambda: folded_offset(0),
        lambda: wrapped(jax.random.key_data(jax.random.key(0))),
        lambda: negated(0),
        lambda: traced_offset(0),
    ):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    draws = legacy(2)
    assert len(draws) == 2 and not jnp.array_equal(draws[0], draws[1])
    assert jnp.array_equal(data_offset(0), jax.random.key_data(jax.random.key(0)) + 1)
    assert jnp.array_equal(rebound(0), data_offset(0))
    draws = folded(2)
    assert len(draws) == 2 and not jnp.array_equal(draws[0], draws[1])
    print("ok")

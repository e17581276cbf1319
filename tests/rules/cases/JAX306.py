# `jax.random.split(key, num)` makes exactly `num` keys (2 by default): unpacked into another
# number of names it raises `ValueError` (measured with JAX 0.10.2, typed and legacy keys,
# eagerly and under `jit`).
import jax

N_KEYS = 4


def init_keys(key):
    key, init_key, dropout_key = jax.random.split(key)  # error: JAX306
    return key, init_key, dropout_key


def two_of_three(key):
    a, b = jax.random.split(key, 3)  # error: JAX306
    return a, b


def legacy(seed):
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(seed))  # error: JAX306
    return k1, k2, k3


@jax.jit
def traced(key):
    a, b, c = jax.random.split(key, num=N_KEYS)  # error: JAX306
    return a


# near misses


def right_count(key):
    key, init_key, dropout_key = jax.random.split(key, 3)
    return key, init_key, dropout_key


def starred(key):
    first, *rest = jax.random.split(key, N_KEYS)
    return first, rest


def default_pair(key):
    key, sub = jax.random.split(key)
    return key, sub


def unknown_count(key, n):
    a, b = jax.random.split(key, n)
    return a, b


def raises(call):
    try:
        call()
    except ValueError:
        return True
    return False


if __name__ == "__main__":
    key = jax.random.key(0)
    for call in (init_keys, two_of_three, lambda k: legacy(0), traced):
        assert raises(lambda: call(key))
    for call in (right_count, starred, default_pair, lambda k: unknown_count(k, 2)):
        assert not raises(lambda: call(key))

# A Python int outside the int32 range meeting a JAX array raises `OverflowError` while 64-bit
# types are off (measured with JAX 0.10.2, eager and under `jit`, for int32, uint32 and float32
# arrays alike; `x ** 2**31` and NumPy arrays work; `jnp.uint32(2654435761)` is a typed value).
import jax
import jax.numpy as jnp
import numpy as np

GOLDEN = 2654435761
SMALL = 2**31 - 1


@jax.jit
def bucket_ids(ids):
    return (ids * 2654435761) % 1024  # error: JAX638


def low_bits(x):
    h = jnp.asarray(x, jnp.uint32)
    return h & 0xFFFFFFFF  # error: JAX638


def flip(h):
    h = jnp.asarray(h, jnp.int32)
    h ^= 2**32  # error: JAX638
    return h


def below(x):
    return jnp.arange(3) < 2**31  # error: JAX638


def scaled(x):
    return jnp.ones(3) * GOLDEN  # error: JAX638


def chosen():
    return jnp.where(jnp.arange(3) > 1, 2**32, 0)  # error: JAX638


def updated():
    return jnp.zeros(3, jnp.int32).at[0].set(1 << 32)  # error: JAX638


def made():
    return jnp.array(-(2**31) - 1)  # error: JAX638


def timestamps():
    events_ms = [1_700_000_000_123, 1_700_000_000_623]
    return jnp.array(events_ms)  # error: JAX638


# near misses


def small_list():
    return jnp.array([1, 2, 2**31 - 1])


def float_timestamps():
    return jnp.array([1_700_000_000.123, 1_700_000_000.623])


def on_numpy():
    return np.arange(3) * 2654435761


def power():
    return jnp.arange(3.0) ** 2**31


def fits():
    return jnp.arange(3) * SMALL + (-(2**31))


def typed():
    return jnp.arange(3).astype(jnp.uint32) * jnp.uint32(2654435761)


def python_only():
    return GOLDEN * 3 % 1024


def typed_array():
    return jnp.array(2654435761, dtype=jnp.uint32)


def overflowing(call):
    try:
        call()
    except OverflowError:
        return True
    return False


if __name__ == "__main__":
    for call in (
        lambda: bucket_ids(jnp.arange(4)),
        lambda: low_bits(jnp.arange(3)),
        lambda: flip(jnp.arange(3)),
        lambda: below(None),
        lambda: scaled(None),
        chosen,
        updated,
        made,
        timestamps,
    ):
        assert overflowing(call)
    for call in (on_numpy, power, fits, typed, python_only, typed_array, small_list, float_timestamps):
        assert not overflowing(call)

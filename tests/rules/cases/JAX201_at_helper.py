# `x.at[i]` is a helper whose methods (`set`, `add`, ...) return the updated array: assigning
# into it raises `TypeError` ("'_IndexUpdateHelper' object does not support item assignment",
# measured with JAX 0.10.2), eagerly and under jit.
import jax
import jax.numpy as jnp


def set_bias(idx, val):
    b = jnp.zeros(4)
    b.at[idx] = val  # error: JAX201
    return b


@jax.jit
def zero_first(x):
    x.at[0] = 0.0  # error: JAX201
    return x


def reset_slot(buffer, slot):
    buffer.at[slot] = 0.0  # error: JAX201
    return buffer


# near misses


def set_bias_functionally(b, idx, val):
    return b.at[idx].set(val)


def pandas_like(frame):
    frame.at[0, "a"] = 1  # a parameter of plain code may be a data frame
    return frame


if __name__ == "__main__":
    print(set_bias_functionally(jnp.zeros(4), 2, 1.0))
    for failing in (lambda: set_bias(2, 1.0), lambda: zero_first(jnp.ones(3)), lambda: reset_slot(jnp.ones(4), 2)):
        try:
            failing()
        except TypeError as error:
            print("TypeError:", str(error)[:60])
        else:
            raise AssertionError("expected TypeError")

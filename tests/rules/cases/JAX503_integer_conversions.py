# Python's integer conversions call `__index__`, which a tracer refuses (measured with JAX 0.10.2:
# TracerIntegerConversionError for an integer tracer under jit).
import operator

import jax


@jax.jit
def as_hex(x):
    return len(hex(x))  # error: JAX503


@jax.jit
def as_bits(x):
    return len(bin(x))  # error: JAX503


@jax.jit
def as_char(x):
    return chr(x)  # error: JAX503


@jax.jit
def as_index(x):
    return operator.index(x)  # error: JAX503


# near misses


@jax.jit
def width(x):
    return x + len(bin(x.shape[0]))  # a shape: a Python int


@jax.jit
def rounded(x):
    return round(x)  # `__round__` is `jnp.round`: a tracer


if __name__ == "__main__":
    for function in (as_hex, as_bits, as_char, as_index):
        try:
            function(3)
        except jax.errors.TracerIntegerConversionError:
            pass
        else:
            raise AssertionError("expected TracerIntegerConversionError")
    assert int(rounded(2.6)) == 3
    print("ok")

# `complex64` says nothing of 64-bit mode: a module using it still truncates float64 to float32 when
# that mode is off (measured with JAX 0.10.2: the array's dtype is float32).
import jax.numpy as jnp


def spectrum(x):
    return jnp.fft.fft(x.astype(jnp.complex64))


def precise_zeros(n):
    return jnp.zeros(n, dtype=jnp.float64)  # error: JAX605


if __name__ == "__main__":
    assert precise_zeros(2).dtype == jnp.float32
    assert spectrum(jnp.ones(4)).dtype == jnp.complex64
    print("ok")

# Ahead-of-time compilation traces the function at `lower(...)`: the compiled program keeps the
# value a global had then, whatever it holds when the program is later called (measured with
# JAX 0.10.2).
import jax
import jax.numpy as jnp

OFFSET = 0.0
SCALE = 1.0
GAIN = 1.0
BIAS = 0.0


def calibrate(raw):
    return raw * 2.0 + OFFSET  # error: JAX103


@jax.jit
def scaled(x):
    return x * SCALE  # error: JAX103


def amplified(x):
    return x * GAIN  # error: JAX103


sample = jnp.ones(4)
compiled = jax.jit(calibrate).lower(sample).compile()
lowered = scaled.lower(sample)
scaled_program = lowered.compile()
OFFSET = 10.0
SCALE = 3.0
out = compiled(sample)
scaled_out = scaled_program(sample)


def serve(x):
    global GAIN
    program = jax.jit(amplified).lower(x).compile()
    GAIN = 5.0
    return program(x)


# near misses


def biased(x):
    return x + BIAS  # set before the program is lowered


def configured(x):
    global BIAS
    BIAS = 1.0
    program = jax.jit(biased).lower(x).compile()
    return program(x)


if __name__ == "__main__":
    assert jnp.allclose(out, 2.0) and jnp.allclose(scaled_out, 1.0)  # the old values
    assert jnp.allclose(serve(sample), 1.0)
    assert jnp.allclose(configured(sample), 2.0)
    print("ok")

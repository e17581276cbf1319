# `lax.scan` slices every leaf of `xs` along its leading axis: a Python number in a list or
# tuple has none, and JAX raises `ValueError` ("scan got value with no leading axis to scan
# over", measured with JAX 0.10.2). One array of the numbers scans.
import jax
import jax.numpy as jnp
from jax import lax


def ema(carry, v):
    new = 0.9 * carry + 0.1 * v
    return new, new


rewards = [1.0, 0.5, 2.0, 0.0]


def discounted():
    return lax.scan(ema, 0.0, rewards)  # error: JAX407


def literal_steps():
    return jax.lax.scan(ema, 0.0, xs=(1, 2, 3))  # error: JAX407


# near misses


def discounted_array():
    return lax.scan(ema, 0.0, jnp.array(rewards))


def arrays_in_a_list():
    return lax.scan(lambda c, xy: (c + xy[0] * xy[1], None), 0.0, [jnp.ones(3), jnp.ones(3)])


if __name__ == "__main__":
    print(discounted_array()[0], arrays_in_a_list()[0])
    for failing in (discounted, literal_steps):
        try:
            failing()
        except ValueError as error:
            print("ValueError:", str(error)[:50])
        else:
            raise AssertionError("expected ValueError")

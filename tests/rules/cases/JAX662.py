# Unsigned subtraction wraps around: `jnp.abs(a - b)` of uint8 arrays is wrong where b > a
# (measured with JAX 0.10.2: 10 - 20 is 246). Signed or float operands are fine.
import jax
import jax.numpy as jnp
import numpy as np

frame_a = jnp.array([[10, 200], [50, 0]], dtype=jnp.uint8)
frame_b = jnp.array([[20, 190], [50, 5]], dtype=jnp.uint8)


@jax.jit
def motion_energy(a, b):
    diff = jnp.abs(a - b)  # error: JAX662
    return diff.astype(jnp.float32).sum()


def pixel_distance(x, y):
    return abs(x.astype(np.uint16) - y.astype("uint16"))  # error: JAX662


# near misses


@jax.jit
def motion_energy_signed(a, b):
    diff = jnp.abs(a.astype(jnp.int32) - b.astype(jnp.int32))
    return diff.astype(jnp.float32).sum()


def float_distance(x, y):
    return jnp.abs(x - y)


if __name__ == "__main__":
    assert float(motion_energy(frame_a, frame_b)) != 25.0
    assert float(motion_energy_signed(frame_a, frame_b)) == 25.0
    print(pixel_distance(jnp.array([1, 2]), jnp.array([3, 1])), float_distance(jnp.ones(2), jnp.zeros(2)))
    motion_energy(jnp.array([1], dtype=jnp.uint8), jnp.array([2], dtype=jnp.uint8))
    print("ok")

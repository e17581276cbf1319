# A function jitted anew in each iteration of a loop, and called only in that iteration, is
# traced again each time: it reads the global as it is then. One jitted before the loop keeps
# the value of its first trace (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

scale = 1.0
frozen = jax.jit(lambda x: x * scale)  # error: JAX103


def sweep():
    global scale
    outs = []
    for value in (1.0, 2.0, 3.0):
        scale = value
        outs.append(float(frozen(jnp.array(1.0))))
    return outs


def rebuilt():
    global scale
    outs = []
    for value in (1.0, 2.0, 3.0):
        scale = value
        fresh = jax.jit(lambda x: x * scale)  # a new function each iteration: traced again
        outs.append(float(fresh(jnp.array(1.0))))
    return outs


if __name__ == "__main__":
    assert sweep() == [1.0, 1.0, 1.0]
    assert rebuilt() == [1.0, 2.0, 3.0]

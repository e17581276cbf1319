# `lax.fori_loop` raises `TypeError` when one bound is an integer and the other a float
# (measured with JAX 0.10.2, eagerly and under jit). Two floats, two ints, and an unknown bound
# are left alone.
import jax
import jax.numpy as jnp
from jax import lax


def body(i, state):
    x, v = state
    return x + 0.1 * v, v - 0.1 * x


def simulate(x0, v0, t_final=1.0, dt=0.1):
    return lax.fori_loop(0, t_final / dt, body, (x0, v0))  # error: JAX416


@jax.jit
def halfway(x):
    return jax.lax.fori_loop(0.0, 5, lambda i, s: s * 2, x)  # error: JAX416


def strong_float(x):
    return lax.fori_loop(0, jnp.float32(5), lambda i, s: s + 1, x)  # error: JAX416


# near misses


def counted(x0, v0, t_final=1.0, dt=0.1):
    return lax.fori_loop(0, int(round(t_final / dt)), body, (x0, v0))


def floor_divided(x, n):
    return lax.fori_loop(0, n // 2, lambda i, s: s + 1, x)


def both_floats(x):
    return lax.fori_loop(0.0, 5.0, lambda i, s: s + 1, x)


if __name__ == "__main__":
    one = jnp.float32(1.0)
    for raising in (lambda: simulate(one, one), lambda: halfway(one), lambda: strong_float(one)):
        try:
            raising()
        except TypeError as error:
            assert "equal types" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print(counted(one, one), floor_divided(one, 6), both_floats(one))
    print("ok")

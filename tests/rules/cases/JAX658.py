# A `jax.jvp` tangent must match its primal: a Python float for a vector raises `ValueError`, an
# int for a float primal `TypeError` (measured with JAX 0.10.2). A float for a 0-d primal works.
import jax
import jax.numpy as jnp


def energy(pos):
    return jnp.sum(jnp.cos(pos) * pos**2)


pos = jnp.array([0.1, 0.5, -0.3])


def slope():
    return jax.jvp(energy, (pos,), (1.0,))  # error: JAX658


def slope_of_ones():
    return jax.jvp(energy, (jnp.ones((2, 3)),), (1.0,))  # error: JAX658


def one_element():
    return jax.jvp(energy, (jnp.array([5.0]),), (1.0,))  # error: JAX658


def integer_tangent():
    return jax.jvp(energy, (jnp.float32(0.5),), (1,))  # error: JAX658


# near misses


def directional():
    return jax.jvp(energy, (pos,), (jnp.ones_like(pos),))


def scalar_primal():
    return jax.jvp(energy, (jnp.float32(0.5),), (1.0,))


def zero_d_ones():
    return jax.jvp(energy, (jnp.ones(()),), (1.0,))


def unknown_primal(x):
    return jax.jvp(energy, (x,), (1.0,))


if __name__ == "__main__":
    for raising in (slope, slope_of_ones, one_element, integer_tangent):
        try:
            raising()
        except (ValueError, TypeError) as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected an error")
    print(directional()[1], scalar_primal()[1], zero_d_ones()[1], unknown_primal(jnp.float32(1.0))[1])
    print("ok")

# JAX differentiates only with respect to floating (or complex) inputs: a Python int or bool
# where the function is differentiated raises `TypeError` (measured with JAX 0.10.2, under
# `jax.jit` too, for grad, value_and_grad, jacrev, jacfwd and hessian). So does an integer or
# boolean array: `jnp.array([1, 2])`, `jnp.arange(3)`, a `dtype=int` or `.astype(jnp.int32)`.
import jax
import jax.numpy as jnp


def energy(n_particles, scale):
    return scale * n_particles**2


d_energy = jax.jit(jax.grad(energy))


@jax.grad
def squared(x):
    return x**2


positions = jnp.array([1, 2, 3])
float_positions = jnp.array([1.0, 2, 3])


if __name__ == "__main__":
    for failing in (
        lambda: d_energy(3, 2.0),  # error: JAX613
        lambda: jax.grad(energy)(3, 2.0),  # error: JAX613
        lambda: jax.value_and_grad(energy, argnums=(0, 1))(2.0, 1),  # error: JAX613
        lambda: squared(True),  # error: JAX613
        lambda: jax.hessian(jnp.sin)(1),  # error: JAX613
        lambda: jax.grad(lambda p: jnp.sum(p**2))(positions),  # error: JAX613
        lambda: jax.grad(energy)(jnp.arange(3), 2.0),  # error: JAX613
        lambda: squared(jnp.ones((), dtype=jnp.int32)),  # error: JAX613
    ):
        try:
            failing()
        except TypeError as error:
            print("TypeError:", str(error)[:40])
    # --- near misses ---
    print(jax.grad(energy, argnums=1)(3, 2.0))  # the int is not differentiated
    print(jax.grad(energy)(3.0, 2.0))  # a float
    print(jax.grad(energy, allow_int=True)(3, 2.0))  # a float0 gradient for the int
    print(squared(2.0))
    print(jax.grad(lambda p: jnp.sum(p**2))(float_positions))  # a float among the numbers
    print(jax.grad(lambda p: jnp.sum(p**2))(jnp.arange(3.0)))  # float bounds
    print(squared(jnp.ones((), dtype=jnp.int32).astype(jnp.float32)))

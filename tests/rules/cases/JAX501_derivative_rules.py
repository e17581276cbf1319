# The rules of a custom derivative run with the tracers of the transformation that
# differentiates the function: under `jit(grad(f))` or `vmap(grad(f))` a Python `if` in them
# raises; under a bare `grad` they see concrete values, and a `jit` without differentiation
# never runs them (measured with JAX 0.10.2).
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_vjp
def clipped_identity(x):
    return x


def clipped_fwd(x):
    return x, x


def clipped_bwd(res, g):
    if res > 1.0:  # error: JAX501
        return (jnp.zeros_like(g),)
    return (g,)


clipped_identity.defvjp(clipped_fwd, clipped_bwd)


@jax.custom_jvp
def soft_abs(x):
    return jnp.abs(x)


@soft_abs.defjvp
def soft_abs_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    if x >= 0:  # error: JAX501
        return soft_abs(x), t
    return soft_abs(x), -t


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def scaled(mode, x):
    return x * 2.0


def scaled_fwd(mode, x):
    return x * 2.0, None


def scaled_bwd(mode, res, g):
    if mode == 1:  # static: a nondiff argument
        return (g * 2.0,)
    return (g,)


scaled.defvjp(scaled_fwd, scaled_bwd)


@jax.custom_vjp
def eager_only(x):
    return x


def eager_fwd(x):
    return x, x


def eager_bwd(res, g):
    if res > 1.0:  # a bare grad: concrete residuals
        return (jnp.zeros_like(g),)
    return (g,)


eager_only.defvjp(eager_fwd, eager_bwd)


@jax.custom_jvp
def jitted_only(x):
    return jnp.sin(x)


@jitted_only.defjvp
def jitted_only_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    if x > 0:  # never run: nothing differentiates `jitted_only`
        return jnp.sin(x), t
    return jnp.sin(x), -t


@jax.custom_vjp
def total(x):
    return x.sum()


def total_fwd(x):
    return x.sum(), x.shape  # a residual that stays a Python tuple


def total_bwd(shape, g):
    return (lax.full(shape, g),)  # a concrete shape: fine under jit


total.defvjp(total_fwd, total_bwd)


@partial(jax.custom_jvp, nondiff_argnums=(0,))
def tiled(shape, x):
    return jnp.broadcast_to(x, shape)


@tiled.defjvp
def tiled_jvp(shape, primals, tangents):
    (x,), (t,) = primals, tangents
    return jnp.broadcast_to(x, shape), jnp.broadcast_to(t, shape)  # `shape` is static


grad_total = jax.jit(jax.grad(total))
grad_tiled = jax.jit(jax.grad(lambda x: tiled((2, 3), x).sum()))
grad_clipped = jax.jit(jax.grad(clipped_identity))
grad_soft_abs = jax.vmap(jax.grad(soft_abs))
grad_scaled = jax.jit(jax.grad(scaled, argnums=1), static_argnums=0)

if __name__ == "__main__":
    print(jax.grad(eager_only)(0.5), jax.jit(jitted_only)(1.0), grad_scaled(1, 1.0))
    print(grad_total(jnp.ones((2, 3))).shape, grad_tiled(1.0))
    for failing in (lambda: grad_clipped(0.5), lambda: grad_soft_abs(jnp.ones(2))):
        try:
            failing()
        except jax.errors.TracerBoolConversionError:
            print("raised")

"""A `jax.custom_vjp` `bwd` rule returns a tuple with one cotangent per positional argument,
also for a function of one argument; an array there raises `TypeError` when JAX differentiates
the function (measured with JAX 0.10.2, for one and for two arguments)."""

from functools import partial

import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_gradient(x):
    return x


def clip_fwd(x):
    return x, None


def clip_bwd(_, g):
    return jnp.clip(g, -1.0, 1.0)  # error: JAX615


clip_gradient.defvjp(clip_fwd, clip_bwd)


@jax.custom_vjp
def scale(x, s):
    return x * s


def scale_fwd(x, s):
    return x * s, (x, s)


def scale_bwd(residuals, g):
    return g * residuals[1]  # error: JAX615


scale.defvjp(scale_fwd, scale_bwd)
scaled_grad = jax.jit(jax.grad(lambda v: scale(v, 2.0).sum()))


# near misses


@jax.custom_vjp
def safe_clip(x):
    return x


def safe_bwd(_, g):
    return (jnp.clip(g, -1.0, 1.0),)  # ok: a one-element tuple


safe_clip.defvjp(clip_fwd, safe_bwd)


@jax.custom_vjp
def pair(x, s):
    return x * s


def pair_bwd(residuals, g):
    x, s = residuals
    grads = (g * s, jnp.sum(g * x))
    return grads  # ok: a tuple, through a name


pair.defvjp(scale_fwd, pair_bwd)


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def power(n, x):
    return x**n


def power_fwd(n, x):
    return x**n, x


def power_bwd(n, x, g):
    return (n * x ** (n - 1) * g,)  # ok: nondiff arguments get no cotangent


power.defvjp(power_fwd, power_bwd)


@jax.custom_jvp
def smooth(x):
    return jnp.tanh(x)


@smooth.defjvp
def smooth_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return smooth(x), t * (1 - jnp.tanh(x) ** 2)  # ok: a jvp rule returns (primal, tangent)


if __name__ == "__main__":
    for hazard in (lambda: jax.grad(clip_gradient)(3.0), lambda: scaled_grad(jnp.ones(2))):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert float(jax.grad(lambda v: safe_clip(v) * 5.0)(3.0)) == 1.0
    assert jax.grad(lambda v: pair(v, 2.0).sum())(jnp.ones(2)).tolist() == [2.0, 2.0]
    assert float(jax.grad(lambda v: power(3, v))(2.0)) == 12.0
    assert jnp.allclose(jax.grad(smooth)(0.0), 1.0)
    print("ok")

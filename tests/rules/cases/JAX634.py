# A `jax.custom_vjp` function has only a reverse-mode rule: `jax.jvp`, `jax.jacfwd` and
# `jax.hessian` (jacfwd of jacrev) of anything that calls it raise `TypeError` ("can't apply
# forward-mode autodiff (jvp) to a custom_vjp function"), under `jit` too; `jax.linearize`,
# reverse mode twice and `vmap` work (measured with JAX 0.10.2).
from functools import partial

import jax
import jax.numpy as jnp


@jax.custom_vjp
def softplus(x):
    return jnp.logaddexp(x, 0.0)


softplus.defvjp(lambda x: (softplus(x), x), lambda x, g: (g * jax.nn.sigmoid(x),))


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def clipped(x, limit):
    return jnp.clip(x, -limit, limit)


clipped.defvjp(lambda x, limit: (clipped(x, limit), None), lambda limit, _, g: (g,))


def scaled_tanh(x):
    return jnp.tanh(x) * 2.0


scaled_tanh = jax.custom_vjp(scaled_tanh)
scaled_tanh.defvjp(lambda x: (scaled_tanh(x), x), lambda x, g: (g * 2.0 / jnp.cosh(x) ** 2,))


@jax.custom_jvp
def smooth(x):
    return jnp.log1p(jnp.exp(x))


smooth.defjvp(lambda primals, tangents: (smooth(primals[0]), tangents[0] * jax.nn.sigmoid(primals[0])))


def energy(x):
    return jnp.sum(softplus(x))


def layer(x):
    return clipped(x, 1.0) * 3.0


def network(x):
    return jnp.sum(layer(x) ** 2)


def smooth_energy(x):
    return jnp.sum(smooth(x))


x = jnp.array([0.5, -0.5])


forward_of_gradient = jax.jit(jax.jacfwd(jax.grad(energy)))  # error: JAX634


def tangent():
    return jax.jvp(energy, (x,), (x,))  # error: JAX634


def curvature():
    return jax.hessian(network)(x)  # error: JAX634 (through `network` and `layer`)


def jacobian_of_lambda():
    return jax.jacfwd(lambda v: scaled_tanh(v).sum())(x)  # error: JAX634


# near misses


def other_modes():
    return (
        jax.jacrev(jax.jacrev(energy))(x),
        jax.linearize(energy, x),
        jax.vmap(energy)(x[:, None]),
        jax.hessian(smooth_energy)(x),  # a custom_jvp function
    )


if __name__ == "__main__":
    other_modes()
    for failing in (tangent, curvature, lambda: forward_of_gradient(x), jacobian_of_lambda):
        try:
            failing()
        except TypeError as error:
            assert "forward-mode" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print("ok")

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def scale(s, x):
    return s * x


def scale_fwd(s, x):
    return scale(s, x), None


def scale_bwd(s, _, g):
    return (s * g,)


scale.defvjp(scale_fwd, scale_bwd)


@jax.jit
def step(s, x):
    return scale(s, x)  # error: JAX107


@jax.jit
def step_by_name(s, x):
    return scale(x=x, s=s)  # error: JAX107


def _clip(x, threshold):
    return jnp.minimum(x, threshold)


clip = jax.custom_vjp(_clip, nondiff_argnums=(1,))
clip.defvjp(lambda x, t: (clip(x, t), None), lambda t, _, g: (g,))


@jax.jit
def clipped(x):
    return clip(x, x.max())  # error: JAX107


def per_row(s, x):
    return scale(s, x)  # error: JAX107


rows = jax.vmap(per_row)


@jax.custom_vjp
def plain(s, x):
    return s * x


plain.defvjp(lambda s, x: (plain(s, x), (s, x)), lambda res, g: (res[1] * g, res[0] * g))


@partial(jax.custom_jvp, nondiff_argnums=(0,))
def scale_jvp(s, x):
    return s * x


@scale_jvp.defjvp
def scale_jvp_rule(s, primals, tangents):
    (x,), (t,) = primals, tangents
    return scale_jvp(s, x), s * t


# --- near misses ---


@jax.jit
def constant_scale(x):
    return scale(2.0, x)  # a Python number stays out of the trace


def broadcast_scale(s, x):
    return scale(s, x)


broadcast = jax.vmap(broadcast_scale, in_axes=(None, 0))  # `s` is not batched: not a tracer


@jax.jit
def differentiable(s, x):
    return plain(s, x)


@jax.jit
def custom_jvp_takes_tracers(s, x):
    return scale_jvp(s, x)


def eager(s, x):
    return scale(s, x)


def differentiated(s, x):
    return jax.grad(lambda x: scale(s, x))(x)  # a bare grad: `s` is a concrete value


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    s, x = jnp.float32(2.0), jnp.ones(2)
    for hazard in (
        lambda: fns["step"](s, x),
        lambda: fns["step_by_name"](s, x),
        lambda: fns["clipped"](x),
        lambda: fns["rows"](jnp.ones(2), jnp.ones(2)),
    ):
        try:
            hazard()
        except jax.errors.UnexpectedTracerError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise UnexpectedTracerError")
    for result in (
        fns["constant_scale"](x),
        fns["broadcast"](s, x),
        fns["differentiable"](s, x),
        fns["custom_jvp_takes_tracers"](s, x),
        fns["eager"](s, x),
    ):
        assert result.tolist() == [2.0, 2.0]
    assert float(fns["differentiated"](s, jnp.float32(1.0))) == 2.0
    print("ok")

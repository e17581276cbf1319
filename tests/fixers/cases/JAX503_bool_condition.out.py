# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def safe_mean(x):
    # any NaN: the if on a tracer is JAX501's to rewrite
    return jnp.where(jnp.isnan(x).any(), jnp.zeros_like(x), x / 2)


@jax.jit
def halve_until_small(x):
    def cond_fun(x):
        return (x > 1.0).all()
    def body_fun(x):
        x = x / 2
        return x
    x = jax.lax.while_loop(cond_fun, body_fun, x)
    return x

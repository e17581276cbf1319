# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def nansum(x):
    mask = ~jnp.isnan(x)
    x_without_nans = jnp.where(mask, x, 0)
    return x_without_nans.sum()


def positive_mean(x):
    return x.mean(where=x > 0)


positive_mean_jit = jax.jit(positive_mean)


@jax.jit
def total(x):
    return jnp.sum(x, where=x > 0) + x.prod(where=x < 0)


@jax.jit
def clip_negative(x):
    return jnp.where(x < 0, 0, x)


@jax.jit
def largest_positive(x):
    return x[x > 0].max()  # no fix


@jax.jit
def step(pair):
    z = jnp.where(pair[1] < 0, 0, pair[1])
    y = pair[1] + z
    return y


@jax.jit
def other(params):
    return jnp.where(params["w"] > 1.0, 1, params["w"])


@jax.jit
def mixed(pair):
    return pair[1].at[pair[0] < 0].set(0.0)  # no fix: the mask is another item's


@jax.jit
def float_fill(x):
    return x.at[x > 10].set(10.5)  # no fix: unsafe, jnp.where makes an integer x float


@jax.jit
def array_fill(pair):
    return pair[1].at[pair[1] < 0].set(pair[0])  # no fix: .at fills the masked places in order

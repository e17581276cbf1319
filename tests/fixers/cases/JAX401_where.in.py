# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def nansum(x):
    mask = ~jnp.isnan(x)
    x_without_nans = x[mask]
    return x_without_nans.sum()


def positive_mean(x):
    return x[x > 0].mean()


positive_mean_jit = jax.jit(positive_mean)


@jax.jit
def total(x):
    return jnp.sum(x[x > 0]) + x[x < 0].prod()


@jax.jit
def clip_negative(x):
    return x.at[x < 0].set(0)


@jax.jit
def largest_positive(x):
    return x[x > 0].max()  # no fix


@jax.jit
def step(pair):
    z = pair[1].at[pair[1] < 0].set(0)
    y = pair[1] + z
    return y


@jax.jit
def other(params):
    return params["w"].at[params["w"] > 1.0].set(1)


@jax.jit
def mixed(pair):
    return pair[1].at[pair[0] < 0].set(0.0)  # no fix: the mask is another item's


@jax.jit
def float_fill(x):
    return x.at[x > 10].set(10.5)  # the fill is cast to `x`'s dtype first, as `.at[].set` does


@jax.jit
def array_fill(pair):
    return pair[1].at[pair[1] < 0].set(pair[0])  # no fix: .at fills the masked places in order


@jax.jit
def fill_gaps(x):
    present = x > 0
    return present.at[~present].set(1)  # `1` is cast to bool first: `jnp.where(m, 1, b)` is int32

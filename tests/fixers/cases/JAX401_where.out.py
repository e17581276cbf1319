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
    return jnp.where(x < 0, jnp.zeros_like(x), x)


@jax.jit
def largest_positive(x):
    return x[x > 0].max()  # no fix


@jax.jit
def step(pair):
    z = jnp.where(pair[1] < 0, jnp.zeros_like(pair[1]), pair[1])
    y = pair[1] + z
    return y


@jax.jit
def other(params):
    return jnp.where(params["w"] > 1.0, jnp.ones_like(params["w"]), params["w"])


@jax.jit
def mixed(pair):
    return pair[1].at[pair[0] < 0].set(0.0)  # no fix: the mask is another item's


@jax.jit
def float_fill(x):
    return jnp.where(x > 10, jnp.full_like(x, 10.5), x)  # the fill is cast to `x`'s dtype first, as `.at[].set` does


@jax.jit
def array_fill(pair):
    return pair[1].at[pair[1] < 0].set(pair[0])  # no fix: .at fills the masked places in order


@jax.jit
def fill_gaps(x):
    present = x > 0
    return jnp.where(~present, jnp.ones_like(present), present)  # `1` is cast to bool first: `jnp.where(m, 1, b)` is int32

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def nansum(x):
    mask = ~jnp.isnan(x)
    return x[mask].sum()  # error: JAX401


def positive_mean(x):
    return x[x > 0].mean()  # error: JAX401


positive_mean_jit = jax.jit(positive_mean)


@jax.jit
def clip_negative(x):
    return x.at[x < 0].set(0.0)  # error: JAX401


@jax.jit
def rows(m, threshold):
    keep = (m.sum(axis=1) > threshold) & jnp.isfinite(m).all(axis=1)
    return m[keep, :]  # error: JAX401


@jax.jit
def constant_mask(x):
    mask = jnp.array([True, False, True])  # under jit, jnp makes a tracer even of constants
    return x[mask]  # error: JAX401


def masked_sum(x, m):
    return x[m].sum()  # error: JAX401


def summed_rows(rows):
    xs = jnp.asarray(rows)
    return jax.vmap(masked_sum)(xs, xs > 0.5)  # eager code hands it boolean masks


# --- near misses ---


@jax.jit
def where_instead(x):
    return jnp.where(x > 0, x, 0.0).sum()


def eager_mask(x):
    return x[x > 0]


@jax.jit
def integer_index(x, idx):
    return x[idx]


@jax.jit
def static_mask(x):
    mask = np.array([True, False, True])  # NumPy: a constant of the trace
    return x[mask]


def grad_only(x):
    return (x[x > 0] ** 2).sum()


g = jax.grad(grad_only)


@jax.jit
def masked_error(pred, target):
    valid = target >= 0
    return ((pred - target)[valid] ** 2).mean()  # error: JAX401


if __name__ == "__main__":
    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.array([1.0, -1.0, 2.0])
    for hazard in (
        lambda: named["nansum"](x),
        lambda: named["positive_mean_jit"](x),
        lambda: named["clip_negative"](x),
        lambda: named["rows"](jnp.ones((2, 2)), 0.5),
        lambda: named["constant_mask"](x),
        lambda: named["summed_rows"]([[1.0, 0.0], [0.2, 0.9]]),
        lambda: named["masked_error"](x, x),
    ):
        try:
            hazard()
        except jax.errors.NonConcreteBooleanIndexError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise NonConcreteBooleanIndexError")
    assert float(named["where_instead"](x)) == 3.0
    assert named["eager_mask"](x).tolist() == [1.0, 2.0]
    assert float(named["positive_mean"](x)) == 1.5
    assert float(named["integer_index"](x, 1)) == -1.0
    assert named["static_mask"](x).tolist() == [1.0, 2.0]
    assert named["g"](x).tolist() == [2.0, 0.0, 4.0]
    print("ok")

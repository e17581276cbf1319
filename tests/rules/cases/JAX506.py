# Reverse mode differentiates both branches of `jnp.where` and multiplies the one not taken by 0:
# where the guard excludes them, sqrt's derivative is infinite or NaN (log's is infinite at 0),
# and 0 * inf is NaN (measured with JAX 0.10.2). The "double where" keeps the operand in range.
import jax
import jax.numpy as jnp


def safe_dist(d2):
    return jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)  # error: JAX506


def norm(v):
    sq = jnp.sum(v**2, axis=-1)
    return jnp.where(0 < sq, sq**0.5, 0.0)  # error: JAX506


def entropy(p):
    return -jnp.sum(jnp.where(p <= 0, 0.0, p * jnp.log(p)))  # error: JAX506 (log' inside the product)


def log_or_zero(p):
    return jnp.where(p > 0, jnp.log(p), 0.0)  # error: JAX506


@jax.jit
def step(w, x):
    return jax.value_and_grad(lambda w: jnp.sum(safe_dist(x @ w)))(w)


def losses(x):
    return jax.grad(lambda v: jnp.sum(norm(v)))(x), jax.grad(lambda p: jnp.sum(log_or_zero(p)))(x)


# near misses


def double_where(d2):
    return jnp.where(d2 > 0, jnp.sqrt(jnp.where(d2 > 0, d2, 1.0)), 0.0)


def log_at_least_zero(p):
    return jnp.where(p >= 0, jnp.log(p), 0.0)  # NaN only below 0, where log' is finite


def masked(d2, mask):
    return jnp.where(mask, jnp.sqrt(d2), 0.0)


def eager_only(d2):
    return jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)


def smoothed(x):
    return jax.grad(lambda v: jnp.sum(double_where(v) + log_at_least_zero(v) + masked(v, v > 1.0)))(x)


if __name__ == "__main__":
    x = jnp.array([4.0, 0.0, -1.0])
    assert not jnp.isnan(smoothed(jnp.array([4.0, 2.0]))).any()
    assert not jnp.isnan(jax.grad(lambda v: jnp.sum(double_where(v)))(x)).any()
    assert not jnp.isnan(jax.grad(lambda v: jnp.sum(log_at_least_zero(v)))(jnp.array([4.0, -1.0]))).any()
    print(eager_only(x))
    assert jnp.isnan(jax.grad(entropy)(jnp.array([0.5, 0.0]))[1])
    _, g = step(jnp.ones((3, 1)), jnp.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]))
    assert jnp.isnan(g).all()
    a, b = losses(jnp.array([[3.0, 4.0], [0.0, 0.0]]))
    assert jnp.isnan(a[1]).all() and jnp.isnan(b[1]).all()
    print("ok")

# fix: unsafe
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def carried(n):
    def body(i, state):
        n, total = state
        kept = jnp.where(lax.broadcasted_iota(jnp.int32, jnp.arange(8.0).shape, 0) < n, jnp.arange(8.0), 0)
        return n, total + jnp.sum(kept)

    return lax.fori_loop(0, 3, body, (n, jnp.float32(0.0)))[1]


def per_row(x, n):
    return jnp.where(lax.broadcasted_iota(jnp.int32, x.shape, 0) < n, x, 0).sum()


@jax.jit
def rows(xs, ns):
    return jax.vmap(per_row)(xs, ns)


@jax.jit
def lengths(x, n):
    return jnp.sum(jnp.where(lax.broadcasted_iota(jnp.int32, x.shape, 0) < n, x, 0))


def averaged(x, n):
    return x[:n].mean()  # no fix: a mean counts the rows, zeros included


def measured(x, n):
    kept = x[:n]  # no fix: the length is read, not only the sum
    return kept.sum() / kept.shape[0]


def shifted(x, n):
    return x[1:n].sum()  # no fix: only a prefix


def drawn(key, n):
    return jax.random.normal(key, (8,))[:n].sum()  # no fix: written twice it would draw twice


sizes = jnp.array([2, 3])
totals = rows(jnp.ones((2, 4)), sizes)
batch = jax.jit(jax.vmap(averaged))(jnp.ones((2, 4)), sizes)
other = jax.jit(jax.vmap(measured))(jnp.ones((2, 4)), sizes)
moved = jax.jit(jax.vmap(shifted))(jnp.ones((2, 4)), sizes)
drew = jax.jit(jax.vmap(drawn))(jax.random.split(jax.random.key(0)), sizes)
both = lengths(jnp.ones(4), sizes[0])

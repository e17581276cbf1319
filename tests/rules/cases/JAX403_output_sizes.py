# The sizes that make a data-dependent output static under `jit` (`size=`, `num_segments=`,
# `length=`) must themselves be concrete: traced, JAX raises `ConcretizationTypeError`
# (measured with JAX 0.10.2; the API measurement now records them).
import jax
import jax.numpy as jnp


@jax.jit
def per_group_total(values, group_ids):
    n_groups = group_ids.max() + 1
    return jax.ops.segment_sum(values, group_ids, num_segments=n_groups)  # error: JAX403


@jax.jit
def first_hits(x, budget):
    return jnp.nonzero(x > 0, size=budget)  # error: JAX403


@jax.jit
def counts(ids, n):
    return jnp.bincount(ids, length=n)  # error: JAX403


@jax.jit
def static_sizes(values, group_ids):
    totals = jax.ops.segment_sum(values, group_ids, num_segments=values.shape[0])
    hits = jnp.nonzero(values > 0, size=4, fill_value=-1)
    return totals, hits, jnp.bincount(group_ids, length=8)


if __name__ == "__main__":
    ids = jnp.array([0, 0, 1, 2])
    print(static_sizes(jnp.arange(4.0), ids))
    for failing in (
        lambda: per_group_total(jnp.arange(4.0), ids),
        lambda: first_hits(jnp.arange(4.0), 2),
        lambda: counts(ids, 3),
    ):
        try:
            failing()
        except jax.errors.ConcretizationTypeError:
            print("raised")

# A parameter that takes a traced array as well as a concrete int (`bins` of `jnp.histogram`,
# `x` of `jax.random.permutation`) raises only when given an int: here every call in sight
# passes a Python int, which `jax.jit` makes a traced scalar (measured with JAX 0.10.2:
# `ConcretizationTypeError`). Edges given as an array may be traced.
import jax
import jax.numpy as jnp


def class_histogram(scores, n_bins):
    counts, _ = jnp.histogram(scores, bins=n_bins, range=(0.0, 1.0))  # error: JAX403
    return counts / scores.shape[0]


hist_fn = jax.jit(class_histogram)


@jax.jit
def shuffled(key, n):
    return jax.random.permutation(key, n)  # error: JAX403


def edge_histogram(scores, edges):
    counts, _ = jnp.histogram(scores, bins=edges)  # edges, an array: traced is fine
    return counts


edge_fn = jax.jit(edge_histogram)


def either_histogram(scores, bins):
    counts, _ = jnp.histogram(scores, bins=bins)  # an int here, an array there: not claimed
    return counts


either_fn = jax.jit(either_histogram)


@jax.jit
def shuffled_rows(key, rows):
    return jax.random.permutation(key, rows)  # an array to shuffle: traced is fine


def main():
    scores = jnp.linspace(0.0, 1.0, 20)
    key = jax.random.key(0)
    counts = hist_fn(scores, 5)
    order = shuffled(key, 4)
    by_edges = edge_fn(scores, jnp.linspace(0.0, 1.0, 6))
    mixed = either_fn(scores, jnp.linspace(0.0, 1.0, 3)), either_fn(scores, 2)
    rows = shuffled_rows(jax.random.key(1), jnp.arange(4))
    return counts, order, by_edges, mixed, rows


if __name__ == "__main__":
    import sys

    scores = jnp.linspace(0.0, 1.0, 20)
    key = jax.random.key(0)
    for call in (lambda: hist_fn(scores, 5), lambda: shuffled(key, 4), lambda: either_fn(scores, 2)):
        try:
            call()
        except jax.errors.ConcretizationTypeError:
            pass
        else:
            sys.exit("a traced int did not raise ConcretizationTypeError")
    assert edge_fn(scores, jnp.linspace(0.0, 1.0, 6)).sum() == 20
    assert either_fn(scores, jnp.linspace(0.0, 1.0, 3)).sum() == 20
    assert sorted(shuffled_rows(jax.random.key(1), jnp.arange(4)).tolist()) == [0, 1, 2, 3]
    print("ok")

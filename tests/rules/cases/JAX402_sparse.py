# `jax.experimental.sparse` stores as many elements as the dense matrix has nonzeros: under `jit`
# `BCOO.fromdense` (and `bcoo_fromdense`, the BCSR forms) raise `ConcretizationTypeError` unless
# given `nse=` (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
from jax.experimental import sparse


@jax.jit
def mean_aggregate(adjacency, features):
    adj = sparse.BCOO.fromdense(adjacency)  # error: JAX402
    return (adj @ features) / jnp.maximum(adjacency.sum(axis=1, keepdims=True), 1.0)


@jax.jit
def row_compressed(matrix):
    return sparse.bcsr_fromdense(matrix).todense()  # error: JAX402


# near misses


@jax.jit
def bounded_aggregate(adjacency, features):
    adj = sparse.BCOO.fromdense(adjacency, nse=adjacency.size)
    return (adj @ features) / jnp.maximum(adjacency.sum(axis=1, keepdims=True), 1.0)


def eager_sparse(matrix):
    return sparse.bcoo_fromdense(matrix).nse


if __name__ == "__main__":
    adjacency = jnp.array([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    features = jnp.arange(6.0).reshape(3, 2)
    for hazard in (lambda: mean_aggregate(adjacency, features), lambda: row_compressed(adjacency)):
        try:
            hazard()
        except jax.errors.ConcretizationTypeError:
            pass
        else:
            raise AssertionError("expected ConcretizationTypeError")
    assert bounded_aggregate(adjacency, features).shape == (3, 2)
    assert eager_sparse(adjacency) == 4
    print("ok")

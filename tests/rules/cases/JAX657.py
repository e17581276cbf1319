# `vmap(..., out_axes=None)` of a function returning what a mapped argument makes raises
# `ValueError` (measured with JAX 0.10.2). Outputs computed from unmapped arguments, or from the
# mapped ones' shapes only, are fine.
import jax
import jax.numpy as jnp


def per_example_loss(w, x, y):
    return (jnp.dot(x, w) - y) ** 2


batched_loss = jax.vmap(per_example_loss, in_axes=(None, 0, 0), out_axes=None)  # error: JAX657
doubled = jax.vmap(lambda x: x * 2, out_axes=None)  # error: JAX657
positional = jax.vmap(per_example_loss, (None, 0, 0), None)  # error: JAX657

# near misses


def regulariser(w, x):
    return jnp.sum(w**2) + 0.0 * x.shape[0]


def zeros_for(w, x):
    return jnp.zeros_like(x)


mapped_loss = jax.vmap(per_example_loss, in_axes=(None, 0, 0))
shared = jax.vmap(regulariser, in_axes=(None, 0), out_axes=None)
blank = jax.vmap(zeros_for, in_axes=(None, 0), out_axes=None)

if __name__ == "__main__":
    xs, ys, w = jnp.arange(12.0).reshape(4, 3), jnp.ones(4), jnp.ones(3)
    for raising in (lambda: batched_loss(w, xs, ys), lambda: doubled(ys), lambda: positional(w, xs, ys)):
        try:
            raising()
        except ValueError as error:
            assert "out_axes" in str(error)
        else:
            raise AssertionError("expected ValueError")
    print(mapped_loss(w, xs, ys).shape, shared(w, xs).shape, blank(w, xs).shape)
    print("ok")

# optax's numeric helpers compute with JAX: given tracers they return tracers, so a Python
# `if` or a `float()` on their result raises under `jit` (measured with JAX 0.10.2 and optax).
import jax
import jax.numpy as jnp
import optax


@jax.jit
def clip_grads(grads, max_norm=1.0):
    norm = optax.global_norm(grads)
    if norm > max_norm:  # error: JAX501
        grads = jax.tree_util.tree_map(lambda g: g * max_norm / norm, grads)
    return grads


@jax.jit
def clipped(grads, max_norm=1.0):
    norm = optax.global_norm(grads)
    scale = jnp.minimum(1.0, max_norm / norm)  # traced arithmetic: fine
    return jax.tree_util.tree_map(lambda g: g * scale, grads)


def report(grads):
    if optax.global_norm(grads) > 1.0:  # eager: a concrete array
        print("large gradients")


if __name__ == "__main__":
    grads = {"w": jnp.full(4, 3.0)}
    print(clipped(grads), report(grads))
    try:
        clip_grads(grads)
    except jax.errors.TracerBoolConversionError:
        print("raised")

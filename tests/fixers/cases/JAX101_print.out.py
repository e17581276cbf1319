# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    norm = jnp.linalg.norm(x)
    jax.debug.print("norm: {}", norm)  # a comment stays
    jax.debug.print("x={:.3f} {{literal braces}}, and, {}", x, x.sum())
    print("no args")
    jax.debug.print("multi-line {}", norm)
    return x / norm


batched = jax.vmap(lambda v: jax.debug.print("v {}", v) or v)


@jax.jit
def to_file(x):
    print(x, file=None)  # no fix
    print(x, end="")  # no fix
    return x


@jax.jit
def with_static_fields(x):
    mean = x.mean()
    print("stats {mean}:", mean)  # no fix: JAX would print the braces raw
    print(f"shape {x.shape} -> {mean}")  # no fix: the shape would print as a tuple of arrays
    jax.debug.print("rows {} mean {}", x.shape[0], mean)
    jax.debug.print("mean {} {{as text}}", mean)
    return x


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

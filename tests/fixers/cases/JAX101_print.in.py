# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    norm = jnp.linalg.norm(x)
    print("norm:", norm)  # a comment stays
    print(f"x={x:.3f} {{literal braces}}", "and", x.sum(), sep=", ")
    print("no args")
    print(
        "multi-line",
        norm,
    )
    return x / norm


batched = jax.vmap(lambda v: print("v", v) or v)


@jax.jit
def to_file(x):
    print(x, file=None)  # no fix
    print(x, end="")  # no fix
    return x

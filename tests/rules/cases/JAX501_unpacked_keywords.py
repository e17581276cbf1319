# `jax.jit` traces every argument a call passes, keywords unpacked from a dict included: a flag
# delivered through `**config` is a tracer, and a Python `if` on it raises. A parameter the
# mapping leaves out keeps its Python default (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


@jax.jit
def embed_tokens(table, ids, normalize=False, scale=1.0):
    out = table[ids] * scale
    if normalize:  # error: JAX501
        out = out / jnp.linalg.norm(out, axis=-1, keepdims=True)
    return out


# near misses


@jax.jit
def pooled(table, ids, mean=False, scale=1.0):
    out = table[ids] * scale
    if mean:
        out = out.mean(axis=0)
    return out


CONFIG = {"normalize": True, "scale": 2.0}
SCALING = {"scale": 2.0}

if __name__ == "__main__":
    table, ids = jnp.arange(12.0).reshape(4, 3), jnp.array([1, 3])
    try:
        embed_tokens(table, ids, **CONFIG)
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("expected TracerBoolConversionError")
    assert pooled(table, ids, **SCALING).shape == (2, 3)
    print("ok")

# `*dims` under jit: each item is traced unless `static_argnums` names its position; a position
# past the named parameters is one of `*dims` (measured with JAX 0.10.2). `static_argnames`
# cannot name `dims` ("invalid argnames ... positional-only"), so no fix names it.
import jax
import jax.numpy as jnp


def to_grid(flat, *dims):
    return flat.reshape(dims)  # error: JAX403


to_grid_jit = jax.jit(to_grid)


# near misses


def to_static_grid(flat, *dims):
    return flat.reshape(dims)


to_static_grid_jit = jax.jit(to_static_grid, static_argnums=(1, 2))


if __name__ == "__main__":
    print(to_static_grid_jit(jnp.arange(12.0), 3, 4).shape)
    try:
        to_grid_jit(jnp.arange(12.0), 3, 4)
    except TypeError as error:
        print("TypeError", str(error)[:60])
    else:
        raise AssertionError("expected TypeError")

# A pure callback whose result is unused is removed by the compiler under `jit` (and in `lax`
# loops, which compile their body): the callback never runs. Under a bare `vmap` it runs
# (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
import numpy as np

seen = []


def record(x):
    seen.append(np.asarray(x))
    return np.asarray(x)


def shape_of(x):
    return jax.ShapeDtypeStruct(x.shape, x.dtype)


@jax.jit
def statement(x):
    jax.pure_callback(record, shape_of(x), x)  # error: JAX109
    return x + 1.0


@jax.jit
def underscore(x):
    _ = jax.pure_callback(record, shape_of(x), x, vmap_method="sequential")  # error: JAX109
    return x + 1.0


def loop_body(i, x):
    jax.pure_callback(record, shape_of(x), x)  # error: JAX109
    return x * 2.0


def in_a_loop(x):
    return jax.lax.fori_loop(0, 2, loop_body, x)


# near misses


@jax.jit
def used(x):
    y = jax.pure_callback(record, shape_of(x), x)
    return y + 1.0


@jax.jit
def debug(x):
    jax.debug.callback(record, x)
    return x + 1.0


def mapped(x):
    jax.pure_callback(record, shape_of(x), x, vmap_method="sequential")
    return x * 2.0


def eager(x):
    jax.pure_callback(record, shape_of(x), x)
    return x


if __name__ == "__main__":
    x = jnp.ones(3)
    for dropped in (statement, underscore, in_a_loop):
        seen.clear()
        dropped(x)
        assert not seen, dropped.__name__
    for kept in (used, debug, lambda v: jax.vmap(mapped)(jnp.ones((2, 3))), eager):
        seen.clear()
        kept(x)
        jax.effects_barrier()
        assert seen
    print("as labelled")

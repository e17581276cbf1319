# Under `vmap`, `jax.pure_callback` needs `vmap_method=` and an ordered `io_callback` cannot be
# batched (measured with JAX 0.10.2: NotImplementedError, ValueError; also under jit(vmap)).
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

LOG = []


def host_sinc(x):
    return np.sinc(np.asarray(x)).astype(np.float32)


def sinc(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_sinc, out, x)  # error: JAX110


def record(v):
    LOG.append(float(v))


def score(x):
    s = jnp.sum(x**2)
    io_callback(record, None, s, ordered=True)  # error: JAX110
    return s


def inner(x):
    return jax.pure_callback(host_sinc, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # error: JAX110


def outer(x):
    return inner(x) + 1.0


batched_sinc = jax.vmap(sinc)
batched_score = jax.jit(jax.vmap(score))
batched_outer = jax.vmap(outer)

# near misses


def sinc_sequential(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_sinc, out, x, vmap_method="sequential")


def score_unordered(x):
    s = jnp.sum(x**2)
    io_callback(record, None, s)
    return s


@jax.jit
def not_mapped(x):
    return jax.pure_callback(host_sinc, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


if __name__ == "__main__":
    grid = jnp.ones((4, 3))
    for raising in (lambda: batched_sinc(grid), lambda: batched_score(grid), lambda: batched_outer(grid)):
        try:
            raising()
        except (NotImplementedError, ValueError) as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected an error")
    print(jax.vmap(sinc_sequential)(grid).shape, jax.vmap(score_unordered)(grid).shape, not_mapped(grid).shape)
    print("ok")

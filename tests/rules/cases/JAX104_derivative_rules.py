# A custom derivative rule runs in the trace of the function it differentiates: under
# `jit(grad(...))` its side effects happen once per compilation; under a bare `grad` on every
# call (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

BWD_LOG = []
EAGER_LOG = []


@jax.custom_vjp
def clip_gradient(x):
    return x


def clip_fwd(x):
    return x, None


def clip_bwd(_, g):
    BWD_LOG.append("backward")  # error: JAX104
    return (jnp.clip(g, -1.0, 1.0),)


clip_gradient.defvjp(clip_fwd, clip_bwd)
grad_fn = jax.jit(jax.grad(lambda x: jnp.sum(3.0 * clip_gradient(x))))


# near misses


@jax.custom_vjp
def scaled_gradient(x):
    return x


def scaled_fwd(x):
    return x, None


def scaled_bwd(_, g):
    EAGER_LOG.append("backward")  # a bare grad runs it on every call
    return (g * 0.5,)


scaled_gradient.defvjp(scaled_fwd, scaled_bwd)
eager_grad = jax.grad(lambda x: jnp.sum(scaled_gradient(x)))

if __name__ == "__main__":
    for _ in range(3):
        grad_fn(jnp.ones(2))
        eager_grad(jnp.ones(2))
    assert len(BWD_LOG) == 1 and len(EAGER_LOG) == 3
    print(len(BWD_LOG), len(EAGER_LOG))

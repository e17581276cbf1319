# A custom derivative rule runs in the program of the function it differentiates: what it reads
# is compiled in there (measured with JAX 0.10.2: jit(grad) keeps the scale it first traced).
import jax
import jax.numpy as jnp

GRAD_SCALE = 1.0
CLIP = 1.0


@jax.custom_jvp
def scaled_identity(x):
    return x


@scaled_identity.defjvp
def scaled_identity_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return x, t * GRAD_SCALE  # error: JAX103


@jax.custom_jvp
def clipped(x):
    return x


@clipped.defjvp
def clipped_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return x, t * CLIP  # CLIP never changes


grad_fn = jax.jit(jax.grad(lambda w: (5.0 * scaled_identity(w)).sum()))
clip_grad = jax.jit(jax.grad(lambda w: (5.0 * clipped(w)).sum()))
g1 = grad_fn(jnp.ones(2))
c1 = clip_grad(jnp.ones(2))
GRAD_SCALE = 10.0
g2 = grad_fn(jnp.ones(2))
c2 = clip_grad(jnp.ones(2))


if __name__ == "__main__":
    assert jnp.allclose(g1, g2)  # stale: still scaled by 1
    assert jnp.allclose(c1, c2)
    print("ok")

# `globals()["CLIP"]` in traced code reads the module's `CLIP` while JAX traces, as the bare name
# would: the compiled program keeps that value after `CLIP` changes (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

CLIP = 1.0
EPS = 1e-6


def loss(w, x, y):
    err = jnp.clip(x @ w - y, -globals()["CLIP"], 1.0)  # error: JAX103
    return jnp.mean(err**2) + globals()["EPS"]  # a constant that never changes


grad_fn = jax.jit(jax.grad(loss))


def eager_loss(w, x, y):
    return jnp.mean(jnp.clip(x @ w - y, -globals()["CLIP"], 1.0) ** 2)  # eager: read every call


if __name__ == "__main__":
    w, x, y = jnp.zeros(2), jnp.ones((4, 2)), jnp.full(4, 5.0)
    before = grad_fn(w, x, y)
    eager_before = eager_loss(w, x, y)
    CLIP = 100.0
    assert bool(jnp.allclose(grad_fn(w, x, y), before))  # the new CLIP is ignored
    assert not bool(jnp.allclose(eager_loss(w, x, y), eager_before))
    print("ok")

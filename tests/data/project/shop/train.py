import jax

from shop import kernels
from shop.layers import rms

from .kernels import loss, scale_by
from .units import clamp_low


@jax.jit
def step(w, x, n):
    w = scale_by(w, x.sum())
    w = clamp_low(w, 0.0)
    padded = kernels.pad(x, n)
    w = kernels.shifted(w)
    return rms(w), padded


grad_step = jax.jit(jax.grad(loss))


@jax.jit
def repeat(x, times):
    for _ in range(times):
        x = x * 2
    return x


batched = jax.vmap(kernels.jittered)  # a bare vmap runs the Python on every call

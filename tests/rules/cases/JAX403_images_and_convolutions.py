# Measured facts of `jax.image` and of the convolutions (tools/measure_jax_api.py, JAX 0.10.2):
# the output shape of `jax.image.resize` and the strides and dilations of a convolution must be
# known while tracing; the images and filters themselves are traced as any array.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def resized(image, size):
    return jax.image.resize(image, (size, size), "bilinear")  # error: JAX403


@partial(jax.jit, static_argnames=("size",))
def resized_static(image, size):
    return jax.image.resize(image, (size, size), "bilinear")


@jax.jit
def halved(image):
    return jax.image.resize(image, (image.shape[0] // 2, image.shape[1] // 2), "nearest")


@jax.jit
def strided(x, kernel, stride):
    return jax.lax.conv_general_dilated(x, kernel, (stride, stride), "SAME")  # error: JAX403


@jax.jit
def unit_strides(x, kernel):
    return jax.lax.conv_general_dilated(x, kernel, (1, 1), "SAME")


@jax.jit
def plain_conv(x, kernel, stride):
    return jax.lax.conv(x, kernel, (stride, stride), "VALID")  # error: JAX403


def main():
    image = jnp.ones((8, 8))
    x, kernel = jnp.ones((1, 1, 8, 8)), jnp.ones((1, 1, 3, 3))
    return (
        resized(image, 4),
        resized_static(image, 4),
        halved(image),
        strided(x, kernel, 2),
        unit_strides(x, kernel),
        plain_conv(x, kernel, 1),
    )


if __name__ == "__main__":
    image = jnp.ones((8, 8))
    x, kernel = jnp.ones((1, 1, 8, 8)), jnp.ones((1, 1, 3, 3))
    for hazard, error in [
        (lambda: resized(image, 4), TypeError),
        (lambda: strided(x, kernel, 2), jax.errors.TracerArrayConversionError),
        (lambda: plain_conv(x, kernel, 1), TypeError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    assert jnp.allclose(resized_static(image, 4), jnp.ones((4, 4)))
    assert halved(image).shape == (4, 4)
    assert unit_strides(x, kernel).shape == (1, 1, 8, 8) and float(unit_strides(x, kernel)[0, 0, 4, 4]) == 9.0
    print("ok")

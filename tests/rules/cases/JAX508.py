# Rounding, `//`, `argmax` and casts to integer dtypes have a zero derivative: a differentiated
# argument that reaches the output only through them gets a zero gradient everywhere
# (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


def quantised_loss(w, x, target):
    q = jnp.round(w * 4).astype(jnp.int32) / 4  # error: JAX508
    return jnp.sum((q * x - target) ** 2)


def bucket_loss(w, x):
    bucket = w // 0.5  # error: JAX508
    return jnp.sum(bucket * x)


def aux_loss(w, x):
    level = jnp.floor(w * 10.0)  # error: JAX508
    return jnp.sum(level * x), {"level": level}


rounded_grad = jax.grad(lambda w: jnp.sum(jnp.round(w) * 2.0))  # error: JAX508


# near misses


smooth_grad = jax.grad(lambda w: jnp.sum(jnp.round(w) + w))


def straight_through(w, x, target):
    q = w + jax.lax.stop_gradient(jnp.round(w * 4) / 4 - w)
    return jnp.sum((q * x - target) ** 2)


def also_continuous(w, x):
    bucket = jnp.floor(w)
    return jnp.sum(bucket * x + w**2)


def float_cast(w, x):
    return jnp.sum(w.astype(jnp.float32) * x)


def branch_on(w, x):
    scale = jnp.where(w > 0, 2.0, 1.0)
    return jnp.sum(scale * x * w)


if __name__ == "__main__":
    w, x = jnp.array([0.3, -0.8]), jnp.array([1.0, 2.0])
    assert jnp.all(jax.grad(quantised_loss)(w, x, jnp.array([2.0, 2.0])) == 0.0)
    assert jnp.all(jax.grad(bucket_loss)(w, x) == 0.0)
    assert jnp.all(jax.grad(aux_loss, has_aux=True)(w, x)[0] == 0.0)
    assert jnp.any(jax.grad(straight_through)(w, x, jnp.array([2.0, 2.0])) != 0.0)
    assert jnp.any(jax.grad(also_continuous)(w, x) != 0.0)
    assert jnp.any(jax.grad(float_cast)(w, x) != 0.0)
    assert jnp.any(jax.grad(branch_on)(w, x) != 0.0)
    assert jnp.all(rounded_grad(w) == 0.0)
    assert jnp.all(smooth_grad(w) == 1.0)

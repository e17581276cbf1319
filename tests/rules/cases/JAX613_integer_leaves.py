# A pytree differentiated with respect to holds an integer leaf: JAX raises `TypeError` ("grad
# requires real- or complex-valued inputs ... but got int32"), measured with JAX 0.10.2.
import jax
import jax.numpy as jnp


def loss(params, x):
    return jnp.mean(jnp.tanh(x * params["w"] + params["b"]) ** 2)


params = {"w": jnp.ones(3), "b": jnp.zeros(3), "n_layers": 2}
floats = {"w": jnp.ones(3), "b": jnp.zeros(3), "scale": 2.0}
x = jnp.ones(3)


def with_hyperparameter():
    return jax.grad(loss)(params, x)  # error: JAX613


def nested():
    return jax.grad(lambda tree: tree[0]["w"].sum())([{"w": jnp.ones(2), "depth": 3}])  # error: JAX613


# near misses


def all_floats():
    return jax.grad(loss)(floats, x)


def integers_allowed():
    return jax.grad(loss, allow_int=True)(params, x)


if __name__ == "__main__":
    all_floats(), integers_allowed()
    for failing in (with_hyperparameter, nested):
        try:
            failing()
        except TypeError as error:
            assert "real- or complex-valued" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print("ok")

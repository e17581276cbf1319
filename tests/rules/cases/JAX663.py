# A `vmap` `in_axes` dict must have the keys of the dict it maps (measured with JAX 0.10.2:
# `ValueError: vmap in_axes specification must be a tree prefix`).
import jax
import jax.numpy as jnp


def apply(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


params = {"w": jnp.ones((4, 3, 2)), "b": jnp.zeros((4, 2))}
x = jnp.ones((5, 3))
ensemble = jax.vmap(apply, in_axes=({"w": 0}, None))  # error: JAX663


def run():
    return ensemble(params, x)


def run_positional():
    return jax.vmap(apply, ({"b": 0}, None))(params, x)  # error: JAX663


# near misses

complete = jax.vmap(apply, in_axes=({"w": 0, "b": 0}, None))
whole = jax.vmap(apply, in_axes=(0, None))


def run_fine():
    return complete(params, x), whole(params, x)


if __name__ == "__main__":
    for raising in (run, run_positional):
        try:
            raising()
        except ValueError as error:
            assert "tree prefix" in str(error)
        else:
            raise AssertionError("expected ValueError")
    print(run_fine()[0].shape)
    print("ok")

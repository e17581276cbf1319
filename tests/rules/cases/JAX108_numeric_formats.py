# A tracer formats only as a description of itself (`{}`, `%s`); a format spec or a numeric `%`
# conversion asks for its value and raises `TypeError` while JAX traces (measured with JAX
# 0.10.2). Static values format as usual.
import jax
import jax.numpy as jnp

WEIGHTS = {"layer_0": jnp.ones(3), "layer_1": 2 * jnp.ones(3)}


@jax.jit
def apply_layer(x, layer_idx):
    name = "layer_%d" % layer_idx  # error: JAX108
    return x * WEIGHTS[name]


@jax.jit
def labelled(x):
    label = f"mean={x.mean():.2f}"  # error: JAX108
    title = "n={:d}, total={:.1f}".format(x.shape[0], x.sum())  # error: JAX108
    assert label and title
    return x


@jax.jit
def report(x):
    print(f"loss {x.sum():.3f}")  # error: JAX101
    return x


@jax.jit
def static_names(x):
    name = "layer_%d" % (x.shape[0] - 2)  # static: a shape
    width = f"{x.ndim:d}d"
    if width != "1d":
        raise ValueError("not a vector: %s" % x)  # a message, formatted as a description
    return x * WEIGHTS[name]


if __name__ == "__main__":
    print(static_names(jnp.ones(3)))
    for failing in (lambda: apply_layer(jnp.ones(3), 1), lambda: labelled(jnp.ones(3)), lambda: report(jnp.ones(3))):
        try:
            failing()
        except TypeError as error:
            print("TypeError:", str(error)[:60])

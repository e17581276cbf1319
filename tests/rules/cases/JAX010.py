# jaxlint: noqa: JAX6
import jax


@jax.jit
def misspelt(x):
    y = x  # noqa: JAX19  # error: JAX010
    return x


@jax.jit
def left_behind(x):
    y = x + 1  # noqa: JAX101, E501  # error: JAX010
    return y  # noqa: JAX999  # error: JAX010


# --- near misses ---


@jax.jit
def used(x):
    print(x)  # noqa: JAX101
    print(x)  # noqa: JAX1
    text = "# noqa: JAX999"
    return text  # noqa


def other_tools(x):
    return x  # noqa: E501, F401


if __name__ == "__main__":
    x = jax.numpy.float32(1.0)
    assert float(misspelt(x)) == 1.0
    assert float(left_behind(x)) == 2.0
    assert float(other_tools(x)) == 1.0
    print("ok")

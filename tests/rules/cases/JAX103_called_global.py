# A module-level function name that a compiled function calls, rebound between two of its calls:
# the program holds the function traced first (measured with JAX 0.10.2: the second call still
# applies tanh after ACTIVATION became relu).
import jax
import jax.numpy as jnp

ACTIVATION = jnp.tanh
NORMALISE = jnp.abs
FIRST = jnp.tanh


@jax.jit
def layer(w, x):
    return ACTIVATION(w * x)  # error: JAX103


def head(x):
    return NORMALISE(x) * 2  # error: JAX103


head_jit = jax.jit(head)


@jax.jit
def fresh(x):
    return FIRST(x)


class Scaled:
    def __init__(self, x):
        self.value = x * 2


@jax.jit
def scaled(x):
    return Scaled(x).value



w = jnp.float32(-2.0)
x = jnp.array([1.0, 2.0])
FIRST = jax.nn.relu  # before any call: the first trace sees relu
before = layer(w, x)
head_before = head_jit(x)
fresh_before = fresh(x)
scaled_before = scaled(x)
ACTIVATION = jax.nn.relu
NORMALISE = jnp.negative
after = layer(w, x)
head_after = head_jit(x)
Scaled.note = "patched"  # the same class object: nothing to go stale
fresh_after = fresh(x)
scaled_after = scaled(x)


if __name__ == "__main__":
    assert jnp.array_equal(before, after)  # stale: still tanh
    assert jnp.array_equal(head_before, head_after)  # stale: still abs
    assert jnp.array_equal(fresh_after, jax.nn.relu(x))
    assert jnp.array_equal(scaled_before, scaled_after)
    print("ok")

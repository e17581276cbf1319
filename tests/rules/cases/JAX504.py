import jax
import jax.numpy as jnp
from flax.typing import PytreeDeque
from jax import lax


@jax.jit
def safe_log(x):
    assert jnp.all(x > 0), "log of non-positive value"  # error: JAX504
    return jnp.log(x)


@jax.jit
def checked(x, y):
    assert x.shape == y.shape
    assert x.sum() < y.sum()  # error: JAX504
    return x + y


# --- near misses ---


@jax.jit
def shapes_only(x):
    assert x.ndim == 2, "expected a matrix"
    assert x.shape[0] > 0
    return x


def eager(x):
    assert jnp.all(x > 0)
    return jnp.log(x)


def scan_with_queue(xs):
    """The carry holds an object of an imported class (a pytree of its own, here a deque): in the
    body it is that object again, whose truth is its length."""

    def body(carry, x):
        total, pending = carry
        assert not pending
        assert total < 10  # error: JAX504
        return (total + x, pending), x

    return lax.scan(body, (0.0, PytreeDeque()), xs)


if __name__ == "__main__":
    for hazard in (
        lambda: safe_log(jnp.ones(2)),
        lambda: checked(jnp.ones(2), 2 * jnp.ones(2)),
        lambda: scan_with_queue(jnp.ones(3)),
    ):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    assert shapes_only(jnp.ones((2, 2))).shape == (2, 2)
    assert jnp.array_equal(eager(jnp.ones(2)), jnp.zeros(2))
    print("ok")

# `lax.while_loop(cond_fun, body_fun, init_val)`: given the body first, JAX runs the condition
# as the body and raises `TypeError` (measured with JAX 0.10.2).
import jax.numpy as jnp
from jax import lax


def count_halvings(x):
    def body(state):
        x, n = state
        return x / 2, n + 1

    def cond(state):
        x, n = state
        return x > 1.0

    return lax.while_loop(body, cond, (x, 0))  # error: JAX637


def countdown(n):
    return lax.while_loop(lambda i: i - 1, lambda i: i > 0, n)  # error: JAX637


# near misses


def halvings(x):
    def body(state):
        x, n = state
        return x / 2, n + 1

    def cond(state):
        x, n = state
        return (x > 1.0) & (n < 100)

    return lax.while_loop(cond, body, (x, 0))


def flip_until(flag):
    return lax.while_loop(lambda f: f, lambda f: ~f, flag)


if __name__ == "__main__":
    print(halvings(jnp.float32(40.0)), flip_until(jnp.bool_(False)))
    for failing in (lambda: count_halvings(jnp.float32(40.0)), lambda: countdown(jnp.int32(3))):
        try:
            failing()
        except TypeError as error:
            print("TypeError", str(error)[:60])
        else:
            raise AssertionError("expected TypeError")

# A function handed to a `lax` primitive must take the positional arguments the primitive calls
# it with: `fori_loop` passes the step index and the carry, `while_loop` the carry, `scan` the
# carry and a slice, `cond`/`switch` the operands. Otherwise JAX raises `TypeError` when it
# traces it (measured with JAX 0.10.2). Defaults, `*args` and `_` for an unused index are fine.
import jax.numpy as jnp
from jax import lax


def halve(x):
    return x * 0.5 + 1.0


def scan_step(carry):
    return carry + 1.0, carry


def keep_going(i, x):
    return i < 3


def advance(state):
    return state + 1


def double(x, y):
    return x * 2.0


def negate(x, y):
    return -x


# near misses


def step(_, x):
    return x * 0.5 + 1.0


def scaled(i, x, scale=2.0):
    return x * scale


def flexible(*args):
    return args[-1]


if __name__ == "__main__":
    x = jnp.float32(0.0); from jax.lax import cond, fori_loop, scan, while_loop  # noqa: E702
    a=lambda: fori_loop(0, 10, halve, x)  # error: JAX617
    b=lambda: scan(scan_step, x, jnp.ones(3))  # error: JAX617
    c=lambda: while_loop(keep_going, advance, 0)  # error: JAX617
    d=lambda: cond(True, double, negate, x)  # error: JAX617
    for hazard in (a, b, c, d):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert float(lax.fori_loop(0, 10, step, x)) == float(lax.fori_loop(0, 10, lambda i, v: v * 0.5 + 1.0, x))
    assert float(lax.fori_loop(0, 10, scaled, jnp.float32(1.0))) == 1024.0
    assert float(lax.fori_loop(0, 10, flexible, x)) == 0.0
    assert float(lax.cond(True, double, negate, jnp.float32(1.0), x)) == 2.0
    assert float(lax.switch(1, [double, negate], jnp.float32(1.0), x)) == -1.0
    assert float(lax.cond(True, 1.0, halve, 2.0, advance)) == 1.5  # the old five-argument form
    print("ok")

# `fori_loop` calls `body_fun(i, val)`: a body named `(total, i)` gets the index in `total` and
# the carry in `i` (measured with JAX 0.10.2: the sum of squares below 5 came out 148, not 30).
import jax
from jax import lax


def add_square(total, i):
    return total + i * i


@jax.jit
def sum_of_squares(n):
    return lax.fori_loop(0, n, add_square, 0)  # error: JAX664


def accumulate(n):
    return lax.fori_loop(0, n, lambda acc, step: acc * 2 + step, 0)  # error: JAX664


# near misses


def add_square_ok(i, total):
    return total + i * i


def ignore_index(_, x):
    return x * 2


def two_carries(x, y):  # a carry named like a carry, the index not named like one
    return x + y


def summed(n):
    return lax.fori_loop(0, n, lambda x, i: x + i, 0)  # the same either way round


if __name__ == "__main__":
    assert int(sum_of_squares(5)) == 148
    print(lax.fori_loop(0, 5, add_square_ok, 0), lax.fori_loop(0, 3, ignore_index, 1))
    print(lax.fori_loop(0, 3, two_carries, 0), accumulate(3), summed(3))

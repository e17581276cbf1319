import jax
import jax.numpy as jnp
from jax import numpy as jnp2


@jax.jit
def bump(counts, i):
    counts[i] += 1  # error: JAX202
    return counts


@jax.jit
def scale_first_column(m):
    m[:, 0] *= 2.0  # error: JAX202
    return m


def decrement_last(x):
    x[-1] -= 1  # error: JAX202
    return x


def power(n):
    y = jnp2.arange(n)
    y[0] **= 2  # error: JAX202
    y[1] //= 2  # error: JAX202
    return y


# --- near misses ---


@jax.jit
def affine(x, b):
    x += 1.0
    x *= 2.0
    b -= x.mean()
    return x, b


def counters(totals, key):
    totals[key] += 1
    totals.setdefault("n", 0)
    return totals


@jax.jit
def python_list(xs):
    acc = [0.0, 0.0]
    acc[0] += 1.0
    return xs, acc


OFFSETS = jnp.zeros(3)


@jax.jit
def shift_global(x):
    OFFSETS[0] += x  # error: JAX202 (fixed into a new local name: `OFFSETS = ...` would make the global local)
    return OFFSETS


@jax.jit
def bump_bias(params):
    params["b"][0] += 1.0  # error: JAX202 (unsafe fix: params["b"] = params["b"].at[0].add(1.0))
    return params


if __name__ == "__main__":
    import inspect

    run = globals()  # the functions by name: what the calls pass stays out of the analysis above
    for hazard in (
        lambda: run["bump"](jnp.zeros(3, dtype=jnp.int32), 1),
        lambda: run["scale_first_column"](jnp.ones((2, 2))),
        lambda: run["decrement_last"](jnp.ones(3)),
        lambda: run["power"](3),
        lambda: run["shift_global"](1.0),
        lambda: run["bump_bias"]({"b": jnp.zeros(2)}),
    ):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    # `power` stops at its first marked line: run each of its lines on its own
    namespace = {"jnp2": jnp2, "n": 3}
    for line in inspect.getsource(power).splitlines()[1:-1]:
        statement = line.strip()
        if "# error:" in statement:
            try:
                exec(statement, namespace)
            except TypeError:
                pass
            else:
                raise AssertionError(f"{statement!r} did not raise TypeError")
        else:
            exec(statement, namespace)
    out, b = run["affine"](jnp.ones(2), 1.0)
    assert out.tolist() == [4.0, 4.0] and float(b) == -3.0
    assert run["counters"]({"a": 1}, "a") == {"a": 2, "n": 0}
    xs, acc = run["python_list"](jnp.ones(2))
    assert float(acc[0]) == 1.0 and float(acc[1]) == 0.0
    print("ok")

import jax
import jax.numpy as jnp
from jax import numpy as np


def total_loss(a, b, c):
    return jnp.sum([a, b, c])  # error: JAX603


def smooth_max(x, y):
    return jnp.exp((x, y))  # error: JAX603


def clipped(x):
    return jnp.maximum(x, [0.0, 1.0])  # error: JAX603


def squares(xs):
    return jnp.mean([x**2 for x in xs])  # error: JAX603


WEIGHTS = [0.2, 0.3, 0.5]


def weighted(x):
    return jnp.dot(x, WEIGHTS)  # error: JAX603


def selected(mask, x):
    return jnp.where(mask, x, [0.0, 0.0])  # error: JAX603


def norm(a, b):
    return np.linalg.norm(list((a, b)))  # error: JAX603


@jax.jit
def traced(a, b):
    return jnp.max(  # error: JAX603
        [a, b]  # reported at the call
    )


def clipped():
    return jnp.clip([0.5, 2.0], 0.0, 1.0)  # error: JAX603


# --- near misses ---


def chained_products(a, b, c):
    return jnp.linalg.multi_dot([a, b, c])  # a list of arrays is what multi_dot takes


def constructors(a, b):
    return jnp.array([a, b]) + jnp.asarray((a, b)) + jnp.stack([a, b]) + jnp.concatenate([a, b])


def shapes(x):
    return jnp.zeros([2, 3]) + jnp.reshape(x, [2, 3]) + jnp.ones((2, 3))


def axes_and_widths(x):
    return jnp.transpose(x, [1, 0]), jnp.pad(x, [(1, 1), (0, 0)]), jnp.sum(x, axis=(0, 1))


def sequences_of_arrays(xs):
    return jnp.vstack(xs) + jnp.hstack(xs) + jnp.block([[xs[0]]])


def rebound(values):
    values = [v * 2 for v in values]
    values = jnp.array(values)
    return jnp.sum(values)


def unknown(values):
    return jnp.sum(values)


@jax.jit
def picks(idx, x):
    return jnp.choose(idx, [x[:2], x[2:4], x[4:6]], mode="clip")  # choices: a sequence of arrays (measured)


if __name__ == "__main__":
    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    a = jnp.ones(2)
    first_clipped = open(__file__).read().splitlines()[14].strip()  # `clipped` at line 14, shadowed by line 44
    assert first_clipped.startswith("return jnp.maximum(x, [0.0, 1.0])")
    for hazard in (
        lambda: named["total_loss"](a, a, a),
        lambda: named["smooth_max"](a, a),
        lambda: eval(first_clipped[len("return "):].split("  #")[0], {"jnp": jnp, "x": a}),
        lambda: named["squares"]([a, a]),
        lambda: named["weighted"](jnp.ones(3)),
        lambda: named["selected"](jnp.array([True, False]), a),
        lambda: named["norm"](a, a),
        lambda: named["traced"](a, a),
        lambda: named["clipped"](),
    ):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert jnp.array_equal(named["chained_products"](jnp.eye(2), jnp.eye(2), jnp.eye(2)), jnp.eye(2))
    assert named["constructors"](jnp.ones(1), jnp.ones(1)).shape == (2, 2)
    assert named["shapes"](jnp.arange(6.0)).shape == (2, 3)
    assert named["axes_and_widths"](jnp.ones((2, 2)))[1].shape == (4, 2)
    assert named["sequences_of_arrays"]([jnp.ones((1, 1)), jnp.ones((1, 1))]).shape == (2, 2)
    assert float(named["rebound"]([1.0, 2.0])) == 6.0
    assert float(named["unknown"](a)) == 2.0
    assert named["picks"](jnp.array([0, 1]), jnp.arange(6.0)).tolist() == [0.0, 3.0]
    print("ok")

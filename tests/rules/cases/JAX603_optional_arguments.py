# Optional parameters of jax.numpy functions that take arrays refuse a Python list too, by
# position or by keyword (measured by tools/measure_jax_api.py with JAX 0.10.2; `clip`'s
# `min`/`max` checked by hand): `TypeError`, where NumPy takes the list.
import jax.numpy as jnp


def main():
    x = jnp.ones(3)
    low = jnp.clip(x, [0.0, 0.0, 0.0], 1.0)  # error: JAX603
    high = jnp.clip(x, max=[1.0, 1.0, 1.0])  # error: JAX603
    masked = jnp.sum(x, where=[True, False, True])  # error: JAX603
    counts, edges = jnp.histogram(x, bins=[0.0, 0.5, 1.0])  # error: JAX603
    mean = jnp.average(x, weights=[1.0, 2.0, 3.0])  # error: JAX603
    scalars = jnp.clip(x, 0.0, 1.0)  # numbers are fine
    axes = jnp.sum(x, axis=(0,))  # an axis is a tuple of ints
    binned = jnp.histogram(x, bins=3)  # a count
    weighted = jnp.average(x, weights=jnp.array([1.0, 2.0, 3.0]))
    return low, high, masked, counts, edges, mean, scalars, axes, binned, weighted


if __name__ == "__main__":
    import inspect

    try:
        main()
    except TypeError:
        pass
    else:
        raise AssertionError("main() did not raise TypeError")
    # each marked line of `main` on its own: every one raises TypeError, every other line runs
    namespace = {"jnp": jnp}
    for line in inspect.getsource(main).splitlines()[1:-1]:
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
    assert namespace["binned"][0].shape == (3,)
    print("ok")

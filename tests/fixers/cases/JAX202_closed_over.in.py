# fix: unsafe
import jax
import jax.numpy as jnp


def helper_updates_outer_array(x):
    def bump():
        x[0] += 1.0
        return x + x

    y = bump()
    return y + x  # the in-place update was meant to be seen here too


def helper_with_docstring(x):
    def clear():
        """Zero the first entry."""
        x.at[0].set(0.0)
        return x * 2.0

    return clear()


def helper_sets(x):
    def put():
        x[1] = 0.0
        return x.sum()

    return put(), x


def already_nonlocal(x):
    def bump():
        nonlocal x
        x[0] *= 2.0
        return x

    return bump()


def handed_to_a_transform(x):
    def bump():
        x[0] += 1.0  # no fix: checkpoint traces it apart, a nonlocal tracer would leak
        return x

    return jax.checkpoint(bump)()


def global_array():
    TABLE[0] += 1.0  # a module global: the update goes into a new local name
    return TABLE


TABLE = jnp.zeros(3)


@jax.jit
def run(x):
    return (
        helper_updates_outer_array(x),
        helper_with_docstring(x),
        helper_sets(x),
        already_nonlocal(x),
        handed_to_a_transform(x),
        global_array(),
    )

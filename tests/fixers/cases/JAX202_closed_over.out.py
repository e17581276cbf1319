# fix: unsafe
import jax
import jax.numpy as jnp


def helper_updates_outer_array(x):
    def bump():
        nonlocal x
        x = x.at[0].add(1.0)
        return x + x

    y = bump()
    return y + x  # the in-place update was meant to be seen here too


def helper_with_docstring(x):
    def clear():
        """Zero the first entry."""
        nonlocal x
        x = x.at[0].set(0.0)
        return x * 2.0

    return clear()


def helper_sets(x):
    def put():
        nonlocal x
        x = x.at[1].set(0.0)
        return x.sum()

    return put(), x


def already_nonlocal(x):
    def bump():
        nonlocal x
        x = x.at[0].multiply(2.0)
        return x

    return bump()


def handed_to_a_transform(x):
    def bump():
        x[0] += 1.0  # no fix: checkpoint traces it apart, a nonlocal tracer would leak
        return x

    return jax.checkpoint(bump)()


def global_array():
    table = TABLE.at[0].add(1.0)  # a module global: the update goes into a new local name
    return table


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

# A nested function's defaults are evaluated when its `def` (or lambda) runs: inside a traced
# function, a default taken from a traced argument is a tracer in every call that leaves it out.
import jax
import jax.numpy as jnp


@jax.jit
def size_by_default(x, n):
    def inner(y, m=n):
        return y + jnp.zeros(m)  # error: JAX403

    return inner(x)


@jax.jit
def lambda_default(x, n):
    inner = lambda y, m=n: y + jnp.ones(m)  # error: JAX403
    return inner(x)


@jax.jit
def branch_on_default(x, flag):
    def inner(y, t=flag):
        if t:  # error: JAX501
            return y
        return -y

    return inner(x)


def per_example(x, n):
    def inner(y, m=n):
        return y * jnp.ones(m)  # error: JAX403

    return inner(x)


def mapped(xs, ns):
    return jax.vmap(per_example)(xs, ns)


@jax.jit
def constant_default(x):
    def inner(y, m=3):
        return y + jnp.zeros(m)

    return inner(x)


@jax.jit
def default_overridden(x, n):
    def inner(y, m=n):
        return y + jnp.zeros(m)

    return inner(x, 3)


@jax.jit
def default_overridden_by_keyword(x, n):
    def inner(y, m=n):
        return y + jnp.zeros(m)

    return inner(x, m=x.shape[0])


if __name__ == "__main__":
    x = jnp.ones(3)
    for hazard, error in [
        (lambda: size_by_default(x, 3), TypeError),
        (lambda: lambda_default(x, 3), TypeError),
        (lambda: branch_on_default(x, True), jax.errors.TracerBoolConversionError),
        (lambda: mapped(jnp.ones((2, 3)), jnp.array([3, 3])), TypeError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    assert constant_default(x).tolist() == [1.0] * 3
    assert default_overridden(x, 3).tolist() == [1.0] * 3
    assert default_overridden_by_keyword(x, 3).tolist() == [1.0] * 3
    print("ok")

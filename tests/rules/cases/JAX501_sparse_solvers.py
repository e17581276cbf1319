# `jax.scipy.sparse.linalg.cg` (and `gmres`, `bicgstab`) trace the operator they are given on
# vectors shaped like `b`, eagerly too: a Python `if` on what it receives raises. Under `jit` the
# operator is part of the compiled program, so a global it reads is frozen; called eagerly, the
# solver traces it afresh each time (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
from jax.scipy.sparse.linalg import cg, gmres

K = jnp.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
RIDGE = 0.1
DAMP = 0.1


def guarded_matvec(v):
    if jnp.linalg.norm(v) == 0.0:  # error: JAX501
        return v
    return K @ v


def ridge_matvec(v):
    return K @ v + RIDGE * v  # error: JAX103


@jax.jit
def ridge_solve(b):
    return cg(ridge_matvec, b)[0]


# near misses


def damped_matvec(v):
    return K @ v + DAMP * v


def damped_solve(b):
    return gmres(damped_matvec, b)[0]


def solve_guarded(b):
    return cg(guarded_matvec, b)[0]


if __name__ == "__main__":
    b = jnp.array([1.0, 2.0, 3.0])
    try:
        solve_guarded(b)
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("expected TracerBoolConversionError")
    before, damped_before = ridge_solve(b), damped_solve(b)
    RIDGE, DAMP = 10.0, 10.0
    after, damped_after = ridge_solve(b), damped_solve(b)
    assert jnp.allclose(before, after)  # frozen in the compiled program
    assert not jnp.allclose(damped_before, damped_after)  # traced afresh
    print("ok")

import jax
import jax.numpy as jnp


def safe_branch(x):
    return jnp.sqrt(x)


def reject_branch(x):
    raise ValueError("negative input rejected")


def reject_after_log(x):
    message = "bad input"
    assert False, message


@jax.jit
def checked_sqrt(x):
    return jax.lax.cond(x >= 0, safe_branch, reject_branch, x)  # error: JAX511


def pick(i, x):
    branches = [safe_branch, reject_after_log]
    return jax.lax.switch(i, branches, x)  # error: JAX511


def eager_choice(x):
    return jax.lax.cond(True, safe_branch, reject_branch, x)  # error: JAX511


# near misses


def rank_checked(x):
    if x.ndim == 0:
        return x * 2
    raise ValueError("scalars only")  # a static check: scalars return


def sentinel(x):
    return jnp.nan * x


@jax.jit
def checked(x):
    return jax.lax.cond(x >= 0, safe_branch, sentinel, x)


@jax.jit
def ranked(x):
    return jax.lax.cond(x >= 0, safe_branch, rank_checked, x)


if __name__ == "__main__":
    for call in (lambda: checked_sqrt(4.0), lambda: pick(0, 4.0), lambda: eager_choice(4.0)):
        try:
            call()
        except (ValueError, AssertionError):
            pass
        else:
            raise AssertionError("expected the branch's exception")
    assert float(checked(4.0)) == 2.0
    assert float(ranked(4.0)) == 2.0
    print("ok")

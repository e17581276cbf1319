# The `jax.numpy` functions with NumPy's in-place signature raise given the default
# `inplace=True`: JAX arrays are immutable (measured with JAX 0.10.2, eagerly and under jit).
import jax
import jax.numpy as jnp


def mask_illegal(logits, legal):
    jnp.place(logits, ~legal, -1e9)  # error: JAX212
    return logits


@jax.jit
def ban_top1(scores):
    top = jnp.argmax(scores, axis=1, keepdims=True)
    jnp.put_along_axis(scores, top, -jnp.inf, axis=1)  # error: JAX212
    return scores


def zero_diagonal(m):
    return jnp.fill_diagonal(m, 0.0)  # error: JAX212


def overwrite(x, idx):
    out = jnp.put(x, idx, 0.0)  # error: JAX212
    return out


# near misses


def masked(logits, legal):
    return jnp.place(logits, ~legal, -1e9, inplace=False)


@jax.jit
def banned(scores):
    top = jnp.argmax(scores, axis=1, keepdims=True)
    return jnp.put_along_axis(scores, top, -jnp.inf, 1, False)  # `inplace` by position


def raises(thunk):
    try:
        thunk()
    except (ValueError, NotImplementedError) as error:
        return "inplace" in str(error)
    return False


if __name__ == "__main__":
    logits, legal = jnp.array([0.3, 1.2, -0.4]), jnp.array([True, False, True])
    scores = jnp.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
    assert raises(lambda: mask_illegal(logits, legal))
    assert raises(lambda: ban_top1(scores))
    assert raises(lambda: zero_diagonal(jnp.ones((2, 2))))
    assert raises(lambda: overwrite(jnp.ones(3), jnp.array([0])))
    assert int(masked(logits, legal).argmax()) == 0
    assert float(banned(scores)[0, 1]) == -jnp.inf
    print("ok")

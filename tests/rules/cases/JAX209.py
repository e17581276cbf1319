# `p -= lr * g` on a loop variable updates a NumPy array in place, but a JAX array is immutable:
# the new array is bound to the loop variable only, and the container keeps its old arrays
# (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


def sgd_step(params, grads, lr=0.1):
    for p, g in zip(params, grads):
        p -= lr * g  # error: JAX209
    return params


def decay(weights):
    for w in weights.values():
        w *= 0.99  # error: JAX209
    return weights


# near misses


def rebuilt(params, grads, lr=0.1):
    return [p - lr * g for p, g in zip(params, grads)]


def used_after(params, grads, lr=0.1):
    out = []
    for p, g in zip(params, grads):
        p -= lr * g
        out.append(p)
    return out


def extended(rows, extra):
    for row in rows:
        row += extra  # a list: extended in place
    return rows


def counted(n):
    total = 0
    for i in range(n):
        i += 1
        total = total + 1
    return total


if __name__ == "__main__":
    params, grads = [jnp.ones(3), jnp.zeros(2)], [jnp.ones(3), jnp.ones(2)]
    assert jnp.array_equal(sgd_step(params, grads)[0], jnp.ones(3))  # unchanged
    assert jnp.array_equal(decay({"w": jnp.ones(2)})["w"], jnp.ones(2))
    assert not jnp.array_equal(rebuilt(params, grads)[0], jnp.ones(3))
    assert not jnp.array_equal(used_after(params, grads)[0], jnp.ones(3))
    assert extended([[1], [2]], [0]) == [[1, 0], [2, 0]] and counted(3) == 3
    print("ok")

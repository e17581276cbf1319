# What `jax.grad` returns is the pytree of the argument it differentiates, every leaf a JAX
# array (`value_and_grad`: the value and it; `has_aux`: the auxiliary data besides). NumPy
# cannot write into those leaves, nor can item assignment (measured with JAX 0.10.2: `TypeError`).
import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x):
    return jnp.sum(params["w"] * x) + params["b"]


def clipped_in_place(x):
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = jax.grad(loss_fn)(params, x)
    for g in jax.tree.leaves(grads):
        np.clip(g, -1.0, 1.0, out=g)  # error: JAX211
    return grads


def zeroed_first(x):
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    (loss, aux), grads = jax.value_and_grad(lambda p: (loss_fn(p, x), "aux"), has_aux=True)(params)
    grads["w"][0] = 0.0  # error: JAX201
    return loss, aux, grads


# near misses


def clipped_copies(x):
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = jax.grad(loss_fn)(params, x)
    host = [np.array(g) for g in jax.tree.leaves(grads)]
    for g in host:
        np.clip(g, -1.0, 1.0, out=g)
    return host


def rebound_entry(x):
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = jax.grad(loss_fn)(params, x)
    grads["b"] += 1.0  # the dict entry is rebound to a new array: fine
    grads["w"] = grads["w"].at[0].set(0.0)
    return grads


X = jnp.ones(3) * 5.0


def main():
    host = clipped_copies(X)
    rebound = rebound_entry(X)
    return host, rebound


if __name__ == "__main__":
    import sys

    host, rebound = main()
    assert max(float(h.max()) for h in host) == 1.0
    assert float(rebound["b"]) == 2.0 and float(rebound["w"][0]) == 0.0
    for call in (lambda: clipped_in_place(X), lambda: zeroed_first(X)):
        try:
            call()
        except TypeError:
            pass
        else:
            sys.exit("writing into a gradient leaf did not raise TypeError")
    print("ok")

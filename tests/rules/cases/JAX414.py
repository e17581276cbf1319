# JAX flattens a dict in sorted-key order, whatever order its keys were inserted in; `d.keys()`
# keeps insertion order, so pairing the two mislabels the values (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

params = {"weight": jnp.ones((3, 2)), "bias": jnp.zeros(2)}
ordered = {"bias": jnp.zeros(2), "weight": jnp.ones((3, 2))}
grads = jax.tree.map(jnp.ones_like, params)
grads["bias"] = grads["bias"] * 10.0


def grad_norms():
    return dict(zip(params.keys(), [float(jnp.linalg.norm(g)) for g in jax.tree.leaves(grads)]))  # error: JAX414


def shapes():
    return {name: leaf.shape for name, leaf in zip(params, jax.tree_util.tree_leaves(params))}  # error: JAX414


def listed():
    return list(zip(list(params), jax.tree.leaves(jax.tree.map(jnp.abs, params))))  # error: JAX414


# near misses


def in_sorted_order():
    return dict(zip(ordered.keys(), jax.tree.leaves(ordered)))


def by_key():
    return {name: float(jnp.linalg.norm(grads[name])) for name in params}


def sorted_keys():
    return dict(zip(sorted(params), jax.tree.leaves(grads)))


if __name__ == "__main__":
    assert grad_norms()["weight"] > 10.0  # the bias's norm, under "weight"
    assert shapes()["weight"] == (2,) and listed()[0][1].shape == (2,)
    assert in_sorted_order()["weight"].shape == (3, 2)
    assert by_key()["bias"] > 10.0 and sorted_keys()["bias"].shape == (2,)
    print("ok")

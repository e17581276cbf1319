# `jax.tree.map(f, tree, *rest)` takes from every other tree the subtree that matches the first
# tree's structure: a list where the first has a dict, other keys, another length, a leaf where
# the first has a container, raise `ValueError` (pytree structure error). Below the first
# tree's leaves anything goes (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

a = jnp.ones(2)
params = {"dense": {"w": a, "b": a}}
grads = [a, a]
pair = (a, a)


def flat_gradients():
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)  # error: JAX411


def other_keys():
    return jax.tree.map(lambda p, g: p - g, {"w": a}, {"v": a})  # error: JAX411


def tuple_and_list():
    return jax.tree.map(lambda p, g: p - g, pair, [a, a])  # error: JAX411


def nested(p):
    return jax.tree.map(lambda x, y: x + y, {"w": {"k": a}}, {"w": [a]})  # error: JAX411


def leaf_for_a_container():
    return jax.tree.map(lambda x, y: x * y, pair, a)  # error: JAX411


def with_paths():
    return jax.tree_util.tree_map_with_path(lambda path, x, y: x + y, pair, (a, a, a))  # error: JAX411


# near misses


def alike():
    return jax.tree.map(lambda p, g: p - g, params, {"dense": {"b": a, "w": a}})


def prefix():
    return jax.tree.map(lambda x, y: x, pair, (a, (a, a)))


def leaf_first():
    return jax.tree.map(lambda x, y: x, a, (a, a))


def none_under_a_leaf():
    return jax.tree.map(lambda x, y: x, pair, (a, None))


def unknown(g):
    return jax.tree.map(lambda p, x: p - x, params, g)


def custom_leaves():
    return jax.tree.map(lambda p, g: p, pair, [a, a], is_leaf=lambda x: isinstance(x, (tuple, list)))


if __name__ == "__main__":
    alike(), prefix(), leaf_first(), none_under_a_leaf(), unknown(params), custom_leaves()
    for failing in (flat_gradients, other_keys, tuple_and_list, lambda: nested(1), leaf_for_a_container, with_paths):
        try:
            failing()
        except ValueError as error:
            assert "pytree structure" in str(error) or "Custom node type mismatch" in str(error), error
        else:
            raise AssertionError("expected ValueError")
    print("as labelled")

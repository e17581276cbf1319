# `del x[i]` on a JAX array: it has no `__delitem__` (measured with JAX 0.10.2: AttributeError,
# eagerly, under jit and under vmap). Only arrays the code shows are reported: a list parameter
# is often trimmed so.
import jax
import jax.numpy as jnp


def pop_oldest(queue):
    oldest = queue[0]
    del queue[0]  # error: JAX201
    return oldest, queue


@jax.jit
def drop_first(x):
    del x[:1]  # error: JAX201
    return x


weights = jnp.ones(4)


def trim():
    del weights[-1]  # error: JAX201


# near misses


def pop_list(items):
    del items[0]
    return items


def drop_key(params):
    del params["bias"]
    return params


def drop_array(x):
    return jnp.delete(x, 0)


if __name__ == "__main__":
    q = jnp.array([3.0, 1.0, 4.0])
    for call in (lambda: pop_oldest(q), lambda: drop_first(q), trim):
        try:
            call()
        except AttributeError:
            pass
        else:
            raise AssertionError("expected AttributeError")
    assert pop_list([1, 2]) == [2]
    assert drop_key({"bias": 1, "w": 2}) == {"w": 2}
    assert drop_array(q).tolist() == [1.0, 4.0]
    print("ok")

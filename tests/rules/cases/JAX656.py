# JAX sorts a dict's keys to flatten it: keys mixing ints and strings raise `ValueError`
# (measured with JAX 0.10.2, under jit and in jax.tree functions).
import jax
import jax.numpy as jnp


def forward(layers, x):
    for i in range(2):
        x = jnp.tanh(x @ layers[i])
    return x @ layers["head"]


@jax.jit
def decorated(params, x):
    return x @ params["w"]


layers = {0: jnp.ones((3, 3)), 1: jnp.ones((3, 3)), "head": jnp.ones((3, 1))}


def run(x):
    return jax.jit(forward)(layers, x)  # error: JAX656


def count_leaves():
    return len(jax.tree.leaves({"w": jnp.ones(2), 3: jnp.zeros(2)}))  # error: JAX656


def decorated_call(x):
    return decorated({"w": jnp.ones((3, 1)), None: jnp.ones(1)}, x)  # error: JAX656


# near misses

named = {"layer_0": jnp.ones((3, 3)), "layer_1": jnp.ones((3, 3)), "head": jnp.ones((3, 1))}
numbered = {0: jnp.ones(2), 1: jnp.ones(2)}


def fine(x):
    return decorated({"w": jnp.ones((3, 1))}, x), jax.tree.leaves(numbered), jax.tree.leaves(named)


def plain_python():
    return dict(sorted({"a": 1}.items())), str({0: "zero", "one": 1})


if __name__ == "__main__":
    x = jnp.ones((2, 3))
    for raising in (lambda: run(x), count_leaves, lambda: decorated_call(x)):
        try:
            raising()
        except ValueError as error:
            assert "sorting pytree dictionary keys" in str(error)
        else:
            raise AssertionError("expected ValueError")
    print(fine(x)[0].shape, plain_python())
    print("ok")

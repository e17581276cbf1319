# A parameter the function uses as a dict or list (its `.items()`, a membership test, a loop
# over it) holds a container: its truth and its membership tests are Python values under every
# transformation (measured with JAX 0.10.2: each function below runs under `jit`).
import jax
import jax.numpy as jnp


@jax.jit
def forward(params, x, adapters):
    h = x @ params["w"]
    if adapters:  # a dict: empty means "no adapters"
        for delta in adapters.values():
            h = h + x @ delta
    if "bias" in params:  # a membership test of a dict, not a string comparison
        h = h + params["bias"]
    return h


@jax.jit
def mlp(hidden, w_out, x):
    if not hidden:  # a list of layers that may be empty
        return x @ w_out
    for w in hidden:
        x = jnp.tanh(x @ w)
    return x @ w_out


@jax.jit
def gate(x, scale):
    if scale:  # error: JAX501
        return x * scale
    return x


if __name__ == "__main__":
    x = jnp.ones(2)
    print(forward({"w": jnp.eye(2)}, x, {}))
    print(forward({"w": jnp.eye(2), "bias": x}, x, {"q": jnp.eye(2)}))
    print(mlp([], jnp.eye(2), x), mlp([jnp.eye(2)], jnp.eye(2), x))

# A `jax.nn.initializers` factory called with a key and a shape, as its initializer would be: it
# takes the key for a setting and returns a function, not an array (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

key = jax.random.key(0)
keys = jax.random.split(jax.random.key(1), 3)

w = jax.nn.initializers.normal(key, (3, 4))  # error: JAX310
v = jax.nn.initializers.glorot_uniform(keys[0], (3, 4))  # error: JAX310
u = jax.nn.initializers.orthogonal(jax.random.PRNGKey(1), (4, 4))  # error: JAX310

# near misses

w_ok = jax.nn.initializers.normal(stddev=0.01)(keys[2], (3, 4))
b_ok = jax.nn.initializers.zeros(key, (4,))
h_ok = jax.nn.initializers.he_normal()(keys[1], (3, 4))

if __name__ == "__main__":
    assert callable(w) and callable(v) and callable(u)  # functions, not arrays
    print(w_ok.shape, b_ok.shape, h_ok.shape)
    try:
        jnp.ones((2, 3)) @ w
    except TypeError as error:
        print("TypeError", str(error)[:50])

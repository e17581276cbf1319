# optax's L-BFGS runs a line search that evaluates the objective: its update requires `value`,
# `grad` and `value_fn` as keyword-only arguments, and raises `TypeError` without them
# (measured with optax beside JAX 0.10.2 by tools/measure_jax_api.py).
import jax
import jax.numpy as jnp
import optax


def loss(w):
    return jnp.sum((w - 3.0) ** 2)


def plain_steps(w, steps):
    opt = optax.lbfgs()
    state = opt.init(w)
    for _ in range(steps):
        grads = jax.grad(loss)(w)
        updates, state = opt.update(grads, state, w)  # error: JAX623
        w = optax.apply_updates(w, updates)
    return w


def partial_keywords(w):
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.lbfgs())
    state = opt.init(w)
    value, grads = jax.value_and_grad(loss)(w)
    return opt.update(grads, state, w, value=value)  # error: JAX623


# near misses


def line_search_steps(w, steps):
    opt = optax.lbfgs()
    state = opt.init(w)
    for _ in range(steps):
        value, grads = jax.value_and_grad(loss)(w)
        updates, state = opt.update(grads, state, w, value=value, grad=grads, value_fn=loss)
        w = optax.apply_updates(w, updates)
    return w


def plateau_steps(w, steps):
    opt = optax.chain(optax.adam(0.1), optax.contrib.reduce_on_plateau(patience=2))
    state = opt.init(w)
    for _ in range(steps):
        updates, state = opt.update(jax.grad(loss)(w), state, w)  # error: JAX623
        w = optax.apply_updates(w, updates)
    return w


def plateau_steps_with_value(w, steps):
    opt = optax.chain(optax.adam(0.1), optax.contrib.reduce_on_plateau(patience=2))
    state = opt.init(w)
    for _ in range(steps):
        value, grads = jax.value_and_grad(loss)(w)
        updates, state = opt.update(grads, state, w, value=value)
        w = optax.apply_updates(w, updates)
    return w


def adam_steps(w, steps):
    opt = optax.adam(0.1)
    state = opt.init(w)
    for _ in range(steps):
        updates, state = opt.update(jax.grad(loss)(w), state, w)
        w = optax.apply_updates(w, updates)
    return w


if __name__ == "__main__":
    print(line_search_steps(jnp.zeros(3), 3), adam_steps(jnp.zeros(3), 3), plateau_steps_with_value(jnp.zeros(3), 3))
    for failing in (lambda: plain_steps(jnp.zeros(3), 2), lambda: partial_keywords(jnp.zeros(3)), lambda: plateau_steps(jnp.zeros(3), 2)):
        try:
            failing()
        except TypeError as error:
            print("TypeError:", str(error)[:70])
        else:
            raise AssertionError("expected TypeError")

"""`grad`/`value_and_grad` of a function whose every return is a tuple display, without
`has_aux=True` (measured with JAX 0.10.2: `TypeError`, also under `jit`), and with
`has_aux=True` of one returning a tuple that is not a pair."""

from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp

value_net = eqx.nn.MLP(in_size=2, out_size=1, width_size=8, depth=2, key=jax.random.key(0))
scalar_net = eqx.nn.MLP(in_size=2, out_size="scalar", width_size=8, depth=2, key=jax.random.key(1))


def loss_with_metrics(w, x):
    pred = x @ w
    loss = jnp.mean(pred**2)
    return loss, {"pred_mean": pred.mean()}


grad_fn = jax.value_and_grad(loss_with_metrics)  # error: JAX614
plain_grad = jax.jit(jax.grad(loss_with_metrics))  # error: JAX614
lambda_grad = jax.grad(lambda w: (jnp.sum(w**2), w))  # error: JAX614


def three_parts(w):
    return jnp.sum(w), w, w


aux_grad = jax.grad(three_parts, has_aux=True)  # error: JAX614


def plain_loss(w, x):
    return jnp.sum((x @ w) ** 2)


aux_of_array = jax.value_and_grad(plain_loss, has_aux=True)  # error: JAX614


def value(x):
    return value_net(x)


value_grad = jax.grad(value)  # error: JAX614


# near misses


def scalar_value(x):
    return scalar_net(x)


def first_value(x):
    return value_net(x)[0]


scalar_grad = jax.grad(scalar_value)  # ok: out_size="scalar"
first_grad = jax.grad(first_value)  # ok: indexed

good = jax.value_and_grad(loss_with_metrics, has_aux=True)  # ok: a pair with has_aux


def scalar_loss(w):
    if w.ndim > 1:
        return jnp.sum(w)
    return jnp.mean(w**2)


scalar_grad = jax.grad(scalar_loss)  # ok: a scalar
jac = jax.jacrev(loss_with_metrics)  # ok: jacrev differentiates a tuple of outputs


def maybe_tuple(w, with_aux):
    if with_aux:
        return jnp.sum(w), w
    return jnp.sum(w)


either = jax.grad(maybe_tuple)  # ok: one return is a scalar
bound = jax.grad(partial(loss_with_metrics, x=jnp.ones((3, 2))), has_aux=True)  # ok: a pair


def one_element(w):
    return (jnp.sum(w),)


single = jax.grad(one_element)  # ok here: not reported (a tuple of one)


def helper_pair(w):
    return plain_loss(w, jnp.ones((2, 3))), {"norm": jnp.linalg.norm(w)}


def through_helper(w):
    return helper_pair(w)


aux_through_helper = jax.grad(through_helper, has_aux=True)  # ok: the helper returns a pair


if __name__ == "__main__":
    try:
        aux_of_array(jnp.ones(3), jnp.ones((2, 3)))
    except TypeError:
        pass
    else:
        raise AssertionError("expected TypeError")
    try:
        value_grad(jnp.ones(2))
    except TypeError:
        pass
    else:
        raise AssertionError("expected TypeError")
    scalar_grad(jnp.ones(2)), first_grad(jnp.ones(2))
    grads, aux = aux_through_helper(jnp.ones(3))
    assert set(aux) == {"norm"}

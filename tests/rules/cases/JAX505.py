"""Loops of an unknown number of steps differentiated in reverse mode."""

import functools

import jax
import jax.numpy as jnp
from jax import lax


def newton_sqrt(a):
    cond = lambda x: jnp.abs(x * x - a) > 1e-3
    return lax.while_loop(cond, lambda x: 0.5 * (x + a / x), a)  # error: JAX505


slope = jax.grad(newton_sqrt)


def triangular_sum(rho):
    n = rho.shape[-1]

    def outer(i, total):
        def inner(j, y):
            return y * 0.5 + rho[i, j % n]

        return total + lax.fori_loop(0, n - i, inner, 0.0)  # error: JAX505

    return lax.fori_loop(0, n, outer, 0.0)


value_and_slope = jax.value_and_grad(triangular_sum)


def scaled_steps(steps, scale):
    return lax.while_loop(lambda c: c[0] < steps, lambda c: (c[0] + 1, c[1] * scale), (0, scale))[1]  # error: JAX505


slope_in_scale = jax.grad(scaled_steps, argnums=1)


def solve(a, tol):
    return lax.while_loop(lambda x: jnp.abs(x * x - a) > tol, lambda x: 0.5 * (x + a / x), a)  # error: JAX505


def solved_loss(a):
    return solve(a, 1e-3) ** 2  # a helper handed the differentiated argument


solved_slope = jax.grad(solved_loss)


# --- near misses ---


def count(n, scale):
    return lax.while_loop(lambda c: c < n, lambda c: c + 1, 0)  # handed `scale`, but never reads it


def counted_loss(scale):
    return scale * count(5, scale)


counted_slope = jax.grad(counted_loss)


def fixed_newton_sqrt(a):
    return lax.fori_loop(0, 20, lambda i, x: 0.5 * (x + a / x), a)  # static bounds: a scan


fixed_slope = jax.grad(fixed_newton_sqrt)


def counted_steps(steps, scale):
    count = lax.while_loop(lambda c: c < steps, lambda c: c + 1, 0)  # nothing differentiated flows in
    return scale * count


slope_of_count = jax.grad(counted_steps, argnums=1)

forward_slope = jax.jacfwd(newton_sqrt)  # forward mode differentiates a while_loop


@jax.custom_vjp
def solved(a):
    return lax.while_loop(lambda x: jnp.abs(x * x - a) > 1e-3, lambda x: 0.5 * (x + a / x), a)


solved.defvjp(lambda a: (solved(a), a), lambda a, g: (g * 0.5 / jnp.sqrt(a),))

custom_slope = jax.grad(solved)  # the custom rule is differentiated, not the loop


def not_differentiated(x, n):
    return lax.fori_loop(0, n, lambda i, acc: acc + x, 0.0)


run_only = jax.jit(not_differentiated)


def segment_of(x):
    edges = jnp.linspace(0.0, 1.0, 5)
    index = lax.while_loop(lambda k: (k < 4) & (edges[k] < x), lambda k: k + 1, 0)  # x only stops it
    return x * index


lookup_slope = jax.grad(segment_of)


def warm_start(a):
    guess = lax.stop_gradient(lax.while_loop(lambda x: jnp.abs(x * x - a) > 1e-3, lambda x: 0.5 * (x + a / x), a))
    return 0.5 * (guess + a / guess)  # one differentiable Newton step after a stopped solve


warm_slope = jax.grad(warm_start)


def padded_steps(theta):
    start = jnp.zeros(theta.shape[0])  # only the shape of theta
    return lax.while_loop(lambda z: z.sum() < 3.0, lambda z: z + 1.0, start).sum() * theta.sum()


padded_slope = jax.grad(padded_steps)


@jax.custom_jvp
def newton_sqrt_rule(a):
    return lax.while_loop(lambda c: jnp.abs(c * c - a) > 1e-6, lambda c: 0.5 * (c + a / c), a)  # ok: a custom rule


@newton_sqrt_rule.defjvp
def _newton_sqrt_rule_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    root = newton_sqrt_rule(a)
    return root, da / (2 * root)


def scaled_sqrt(a):
    return 3.0 * newton_sqrt_rule(a)


def normalizer(x):
    lo, hi = lax.while_loop(lambda c: c[1] - c[0] > 1e-3, lambda c: ((c[0] + c[1]) / 2 * jnp.sum(x) * 0 + c[0], c[1] / 2), (1e-3, 1e3))  # ok: only its stop_gradient is used
    return lax.stop_gradient(hi)


def loss_with_aux(x):
    _, grown = lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.1), (0, x))  # ok: only the aux output
    return jnp.sum(x**2), grown


def loss_from_the_loop(x):
    _, grown = lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.1), (0, x))  # error: JAX505
    return jnp.sum(grown), x


def unused_loop(x):
    steps = lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.1), (0, x))  # ok: its result is unused
    return jnp.sum(x**2)


slopes = (
    jax.grad(scaled_sqrt),
    jax.grad(lambda x: jnp.sum(x / normalizer(x))),
    jax.grad(loss_with_aux, has_aux=True),
    jax.grad(loss_from_the_loop, has_aux=True),
    jax.grad(unused_loop),
)


def as_index(x):
    y = lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x)  # ok: an integer cast carries no derivative
    return x * y.astype(jnp.int32)


def floored(x):
    y = lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x)  # ok: floor's derivative is zero
    return x * jnp.floor(y) * (y > 5.0)


def scaled_by_the_loop(x):
    y = lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x)  # error: JAX505
    return x * y.astype(jnp.float32)


step_slopes = (jax.grad(as_index), jax.grad(floored), jax.grad(scaled_by_the_loop))


if __name__ == "__main__":
    for hazard in (
        lambda: slope(2.0),
        lambda: value_and_slope(jnp.ones((3, 3))),
        lambda: slope_in_scale(3, 2.0),
        lambda: solved_slope(2.0),
        lambda: slopes[3](jnp.ones(2)),
        lambda: step_slopes[2](1.0),
    ):
        try:
            hazard()
        except ValueError:  # "Reverse-mode differentiation does not work for lax.while_loop ..."
            pass
        else:
            raise AssertionError(f"{hazard} did not raise ValueError")
    root_slope = 0.5 / jnp.sqrt(2.0)
    assert float(counted_slope(2.0)) == 5.0
    assert jnp.allclose(fixed_slope(2.0), root_slope)
    assert float(slope_of_count(3, 2.0)) == 3.0
    assert jnp.allclose(forward_slope(2.0), root_slope, rtol=1e-3)
    assert jnp.allclose(custom_slope(2.0), root_slope)
    assert float(run_only(1.0, 3)) == 3.0
    assert float(lookup_slope(0.5)) == 2.0
    assert jnp.allclose(warm_slope(2.0), root_slope, rtol=1e-3)
    assert padded_slope(jnp.ones(2)).tolist() == [4.0, 4.0]
    assert jnp.allclose(slopes[0](2.0), 3 * root_slope)
    assert slopes[1](jnp.ones(2)).shape == (2,)
    assert slopes[2](jnp.ones(2))[0].tolist() == [2.0, 2.0]
    assert slopes[4](jnp.ones(2)).tolist() == [2.0, 2.0]
    assert float(step_slopes[0](1.0)) == 16.0 and float(step_slopes[1](1.0)) == 16.0
    print("ok")

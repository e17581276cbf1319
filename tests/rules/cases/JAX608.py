import jax
import jax.numpy as jnp
from jax import lax

NUM_STEPS = 1000


@jax.jit
def decay(x):
    for _ in range(1000):  # error: JAX608
        x = x * 0.999 + 0.001
    return x


@jax.jit
def from_constant(x):
    for i in range(NUM_STEPS // 2):  # error: JAX608
        x = x.at[i % 3].add(1.0)
    return x


@jax.jit
def nested(x):
    for _ in range(10):
        for _ in range(20):  # error: JAX608
            x = jnp.sin(x)
    return x


@jax.jit
def collected(x):
    rows = []
    for i in range(128):  # error: JAX608
        rows.append(x[i] * 2)
    return jnp.stack(rows)


@jax.jit
def counted_while(x):
    i = 0
    while i < 1000:  # error: JAX608
        x = x * 0.999
        i += 1
    return x


@jax.jit
def counted_down(x):
    steps = 300
    while steps >= 1:  # error: JAX608
        x = jnp.cos(x)
        steps -= 1
    return x


def body(carry, x):
    for _ in range(200):  # error: JAX608
        carry = carry * x
    return carry, None


def run(xs):
    return lax.scan(body, 1.0, xs)


def logistic_map(r):
    x = 0.5
    for _ in range(300):  # error: JAX608 (under a bare vmap: run op by op, nothing compiled)
        x = r * x * (1 - x)
    return x


def sweep(rs):
    return jax.vmap(logistic_map)(rs)


# --- near misses ---


@jax.jit
def short(x):
    for _ in range(3):
        x = 0.5 * x + 0.25 * (jnp.roll(x, 1) + jnp.roll(x, -1))
    return x


@jax.jit
def rolled(x):
    return lax.fori_loop(0, 1000, lambda i, v: v * 0.999 + 0.001, x)


def eager(x):
    for _ in range(1000):
        x = x * 0.999
    return x


@jax.jit
def static_work_only(x):
    sizes = []
    for i in range(500):
        sizes.append(i * 2)
    return x * len(sizes)


@jax.jit
def layers(params, x):
    for layer in params:
        x = jnp.tanh(x @ layer)
    return x


@jax.jit
def short_while(x):
    i = 0
    while i < 10:
        x = x * 0.5
        i += 1
    return x


@jax.jit
def data_dependent_exit(x):
    i = 0
    while i < 1000:
        x = x * 0.5
        i += 1
        if i > 5:
            i = 2000
    return x


@jax.jit
def counted_by_assignment(x):
    t = 0
    while t < 1000:  # error: JAX608
        x = x * 0.999
        t = t + 1
    return x


@jax.jit
def doubling_counter(x):
    t = 1
    while t < 1000:  # ok: t doubles, ten steps
        x = x * 0.999
        t = t * 2
    return x


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above

    def equations(jaxpr):
        """The number of equations of a jaxpr, those of the jaxprs inside it included."""
        total = 0
        for eqn in jaxpr.eqns:
            total += 1
            for param in eqn.params.values():
                for inner in param if isinstance(param, (tuple, list)) else (param,):
                    inner = getattr(inner, "jaxpr", inner)
                    if hasattr(inner, "eqns"):
                        total += equations(inner)
        return total

    def traced_size(function, *args):
        return equations(jax.make_jaxpr(function)(*args).jaxpr)

    x = jnp.ones(3)
    # the marked loops are unrolled into the program, one copy of the body per step
    assert traced_size(fns["decay"], x) >= 2 * 1000
    assert traced_size(fns["from_constant"], x) >= 500
    assert traced_size(fns["nested"], x) >= 200
    assert traced_size(fns["collected"], jnp.ones(128)) >= 2 * 128
    assert traced_size(fns["counted_while"], x) >= 1000
    assert traced_size(fns["counted_down"], x) >= 300
    assert traced_size(fns["run"], x) >= 200
    assert traced_size(fns["sweep"], x) >= 3 * 300 - 1  # run op by op: 899 operations
    assert traced_size(fns["counted_by_assignment"], x) >= 1000
    # the near misses stay small
    for function, args in [
        ("short", (x,)), ("rolled", (x,)), ("static_work_only", (x,)), ("layers", ([jnp.eye(3)] * 2, x)),
        ("short_while", (x,)), ("data_dependent_exit", (x,)), ("doubling_counter", (x,)),
    ]:
        assert traced_size(fns[function], *args) < 40, function
    assert jnp.allclose(fns["eager"](x), 0.999**1000, rtol=1e-3)
    assert jnp.allclose(fns["rolled"](x), fns["decay"](x), rtol=1e-4)
    print("ok")

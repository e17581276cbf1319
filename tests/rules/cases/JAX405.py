# A `lax` loop body must hand back its carry with the structure and dtype it was given, and the
# branches of `cond`/`switch` must return one structure and dtype: JAX raises `TypeError` when it
# traces them (measured with JAX 0.10.2). A Python number as the initial carry is promoted to a
# higher kind (`0` may become a float); strongly typed starts (`jnp.int32(0)`, `jnp.arange(n)`,
# `jnp.zeros(n)`) and branches get no promotion.
import jax
import jax.numpy as jnp
from jax import lax

DEBUG = False


def halving(i, state):
    t, x = state
    return t / 2, x  # error: JAX405


def draws(c, x):
    return c + jnp.mean(x), None  # error: JAX405


def with_aux(x):
    return x * 2, jnp.sum(x)


def without_aux(x):
    return x  # error: JAX405


def log_only(x):  # error: JAX405 (no return: `None` where the other branch returns an array)
    jax.debug.print("{}", x)


def int_float(p):
    return lax.cond(p, lambda: 1, lambda: 0.5)  # error: JAX405


def cast_branch(p, x):
    return lax.cond(p, lambda x: x.astype(jnp.int32), lambda x: x + 1.0, x)  # error: JAX405


def switch_arity(i, x):
    return lax.switch(i, [lambda x: (x, x), lambda x: (x, x, x)], x)  # error: JAX405


def no_return_lambda(p, x):
    return lax.cond(p, lambda x: jnp.sin(x), log_only, x)


def power_iteration(a):
    def body(i, v):  # error: JAX405 (no return: the carry comes back as `None`)
        v = a @ v
        v = v / jnp.linalg.norm(v)

    return lax.fori_loop(0, 10, body, jnp.ones(a.shape[0]))


def ema(xs, alpha=0.9):
    def step(avg, x):
        return alpha * avg + (1 - alpha) * x  # error: JAX405 (a scan body must return a pair)

    return lax.scan(step, 0.0, xs)[0]


def unreachable(c, x):
    assert False, "never traced to the end"
    return ()


def never_finishes(xs):
    return lax.scan(unreachable, 0.0, xs)  # raises AssertionError while tracing, not TypeError


def aux(p, x):
    return lax.cond(p, with_aux, without_aux, x)


def counted(i, state):
    t, n = state
    n = n + 0.5  # error: JAX405
    return t, n


def running_max(carry, x):
    new_carry = dict(carry)
    new_carry["max"] = jnp.maximum(carry["sum"], x)  # error: JAX405 (a key the carry did not start with)
    new_carry["sum"] = carry["sum"] + x
    return new_carry, x


def dropped_key(i, state):
    out = {**state}
    del out["tmp"]  # error: JAX405
    return out


def counted_dict(state):
    return {"n": state["n"] + 0.5}  # error: JAX405


def keyed_branches(p):
    return lax.cond(p, lambda: {"a": 1.0}, lambda: {"b": 1.0})  # error: JAX405


def truncated_branch(p, x):
    def truncate(x):
        y = x.astype(jnp.int32)  # error: JAX405
        return y

    return lax.cond(p, lambda x: x * 2.0, truncate, x)


# near misses


def promoted(i, c):
    return c + 0.5


def floor_halving(i, c):
    return c // 2


def steps(state):
    t, x = state
    return t + 1, x * 0.5


def same_kind(p, x):
    return lax.cond(p, lambda x: x, lambda x: x.astype(jnp.float32), x)


def weak_float(p, x):
    return lax.cond(p, lambda x: x * 2.0, lambda x: 0.0, x)


def unknown_kind(p, x):
    return lax.cond(p, lambda x: 1, lambda x: x + 1, x)


def static_paths(i, c):
    if DEBUG:
        return c.astype(jnp.int32)
    return c * 0.5


def listed(c, x):
    return [c + x, x]


def both_log(p, x):
    return lax.cond(p, log_only, log_only, x)


def reassigned_in_a_branch(i, state):
    t, n = state
    if DEBUG:
        n = n + 0.5
    return t, n


def same_keys(carry, x):
    new_carry = carry.copy()
    new_carry["max"] = jnp.maximum(carry["max"], x)
    return new_carry, x


def merged(carry, x):
    new_carry = dict(carry)
    new_carry["sum"] = total(new_carry) + x
    return new_carry, x


def total(d):
    return sum(d.values())


def recast(i, state):
    t, n = state
    n = n + 0.5
    n = n.astype(jnp.int32)
    return t, n


if __name__ == "__main__":
    a=lambda:lax.fori_loop(0,3,lambda i,c: c + 0.5, jnp.int32(0))  # error: JAX405
    c187 = lambda: lax.fori_loop(0, 3, halving, (jnp.arange(3), 1.0))
    c188 = lambda: lax.scan(draws, jnp.int32(0), jnp.ones((2, 3)))
    d=lambda:lax.while_loop(lambda c:c<3, lambda c: c < 2, 0)  # error: JAX405
    e=lambda:lax.fori_loop(0,3,lambda i,c: [c[0] + 1, c[1]], (0, 1))  # error: JAX405
    f=lambda:lax.fori_loop(0,3,lambda i,c: c.astype(jnp.int32), jnp.zeros(3))  # error: JAX405
    c192 = lambda: jax.jit(int_float)(True)
    c193 = lambda: jax.jit(cast_branch)(True, jnp.ones(3))
    c194 = lambda: jax.jit(switch_arity)(0, 1.0)
    c195 = lambda: jax.jit(no_return_lambda)(True, 1.0)
    c196 = lambda: jax.jit(aux)(True, jnp.ones(3))
    c197 = lambda: power_iteration(jnp.eye(2))
    c198 = lambda: jax.jit(ema)(jnp.arange(5.0))
    c199 = lambda: lax.fori_loop(0, 3, promoted, 0)
    c200 = lambda: lax.fori_loop(0, 3, floor_halving, jnp.int32(8))
    c201 = lambda: lax.while_loop(lambda s: s[0] < 3, steps, (jnp.int32(0), jnp.float32(1.0)))
    c202 = lambda: jax.jit(same_kind)(True, jnp.ones(3))
    c203 = lambda: jax.jit(weak_float)(True, jnp.float32(1.0))
    c204 = lambda: jax.jit(unknown_kind)(True, jnp.int32(1))
    c205 = lambda: lax.fori_loop(0, 3, static_paths, jnp.float32(1.0))
    c206 = lambda: jax.jit(both_log)(True, 1.0)
    c207 = lambda: lax.scan(listed, 0.0, jnp.arange(3.0))
    c208 = lambda: lax.fori_loop(0, 3, counted, (jnp.ones(2), jnp.int32(0)))
    c209 = lambda: jax.jit(truncated_branch)(True, jnp.ones(2))
    c210 = lambda: lax.fori_loop(0, 3, reassigned_in_a_branch, (jnp.ones(2), jnp.int32(0)))
    c211 = lambda: lax.fori_loop(0, 3, recast, (jnp.ones(2), jnp.int32(0)))
    c212 = lambda: lax.scan(running_max, {"sum": jnp.float32(0.0)}, jnp.arange(3.0))
    c213 = lambda: lax.fori_loop(0, 3, dropped_key, {"tmp": 0.0, "x": 1.0})
    c214 = lambda: lax.while_loop(lambda s: s["n"] < 3, counted_dict, {"n": jnp.int32(0)})
    c215 = lambda: jax.jit(keyed_branches)(True)
    c216 = lambda: lax.scan(same_keys, {"sum": 0.0, "max": 0.0}, jnp.arange(3.0))
    c217 = lambda: lax.scan(merged, {"sum": 0.0}, jnp.arange(3.0))
    for hazard in (a, c187, c188, d, e, f, c192, c193, c194, c195, c196, c197, c198, c208, c209, c212, c213, c214, c215):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    try:
        never_finishes(jnp.arange(3.0))
        raised = False
    except AssertionError:
        raised = True
    assert raised, "never_finishes traced to the end"
    assert float(c199()) == 1.5
    assert int(c200()) == 1
    assert float(c201()[1]) == 0.125
    assert jnp.array_equal(c202(), jnp.ones(3))
    assert float(c203()) == 2.0
    assert int(c204()) == 1
    assert float(c205()) == 0.125
    assert c206() is None
    assert float(c207()[0]) == 3.0
    assert int(c210()[1]) == 0
    assert int(c211()[1]) == 0
    assert float(c216()[0]['max']) == 2.0
    assert float(c217()[0]['sum']) == 3.0
    print("ok")

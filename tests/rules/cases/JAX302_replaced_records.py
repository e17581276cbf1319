import dataclasses
from typing import NamedTuple

import jax
from flax import struct
from jax import lax


@struct.dataclass
class S:
    x: jax.Array
    rng: jax.Array
    lr: float = struct.field(pytree_node=False, default=0.1)


class T(NamedTuple):
    x: jax.Array
    rng: jax.Array


def unsplit(i, s):
    x = s.x - s.lr * jax.random.normal(s.rng, ())  # error: JAX302
    return s.replace(x=x)


def split_back(i, s):
    rng, sub = jax.random.split(s.rng)
    x = s.x - s.lr * jax.random.normal(sub, ())  # ok: the new key goes back
    return s.replace(x=x, rng=rng)


def tuple_unsplit(i, t):
    return t._replace(x=t.x + jax.random.normal(t.rng, ()))  # error: JAX302


def tuple_split_back(i, t):
    rng, sub = jax.random.split(t.rng)
    return t._replace(x=t.x + jax.random.normal(sub, ()), rng=rng)  # ok: the new key goes back


def replace_function(i, s):
    x = s.x + jax.random.normal(s.rng, ())  # error: JAX302
    return dataclasses.replace(s, x=x)


def dict_split_back(i, d):
    rng, sub = jax.random.split(d["rng"])
    return {**d, "x": d["x"] + jax.random.normal(sub, ()), "rng": rng}  # ok: the new key goes back


def dict_other_key_back(i, d):
    rng, sub = jax.random.split(d["noise"])  # error: JAX302 (the new key replaces "rng", not "noise")
    return {**d, "x": d["x"] + jax.random.normal(sub, ()), "rng": rng}


@jax.jit
def run_dicts(d):
    return lax.fori_loop(0, 3, dict_split_back, d), lax.fori_loop(0, 3, dict_other_key_back, d)  # different keys of `d`


@jax.jit
def run(s, t):
    a = lax.fori_loop(0, 3, unsplit, s)
    b = lax.fori_loop(0, 3, split_back, s)  # error: JAX301
    c = lax.fori_loop(0, 3, tuple_unsplit, t)
    d = lax.fori_loop(0, 3, tuple_split_back, t)  # error: JAX301
    return a, b, c, d, lax.fori_loop(0, 3, replace_function, s)  # error: JAX301


if __name__ == "__main__":
    import jax.numpy as jnp

    named = globals()  # the functions by name: what the calls pass stays out of the analysis above

    def records():
        return (
            S(x=jnp.float32(0.0), rng=jax.random.key(0)),
            T(jnp.float32(0.0), jax.random.key(1)),
            {"x": jnp.float32(0.0), "rng": jax.random.key(2), "noise": jax.random.key(3)},
        )

    def draw(seed):
        return float(jax.random.normal(jax.random.key(seed), ()))

    s, t, d = records()
    # the marked bodies draw the same number on every step
    assert jnp.allclose(lax.fori_loop(0, 3, named["unsplit"], s).x, -0.3 * draw(0))
    assert jnp.allclose(lax.fori_loop(0, 3, named["tuple_unsplit"], t).x, 3 * draw(1))
    assert jnp.allclose(lax.fori_loop(0, 3, named["replace_function"], s).x, 3 * draw(0))
    same = float(jax.random.normal(jax.random.split(jax.random.key(3))[1], ()))
    assert jnp.allclose(lax.fori_loop(0, 3, named["dict_other_key_back"], d)["x"], 3 * same)
    assert not jnp.allclose(lax.fori_loop(0, 3, named["split_back"], s).x, -0.3 * draw(0))
    named["run"](s, t)
    named["run_dicts"](d)
    jax.config.update("jax_debug_key_reuse", True)
    for body, init in [
        ("unsplit", 0), ("tuple_unsplit", 1), ("replace_function", 0), ("dict_other_key_back", 2),
    ]:
        try:
            lax.fori_loop(0, 3, named[body], records()[init])
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError(f"{body} did not raise KeyReuseError")
    for body, init in [("split_back", 0), ("tuple_split_back", 1), ("dict_split_back", 2)]:
        lax.fori_loop(0, 3, named[body], records()[init])

    # `run` stops at its first loop's body; with the bodies swapped for ones that split (or draw
    # nothing), each marked loop of `run` shows its own reuse of a key an earlier loop consumed
    def noop(i, record):
        return record

    original = {name: named[name] for name in ("unsplit", "split_back", "tuple_unsplit", "tuple_split_back", "replace_function")}
    for line, swaps in [
        (64, {"unsplit": "split_back", "tuple_unsplit": noop, "tuple_split_back": noop, "replace_function": noop}),
        (66, {"unsplit": noop, "split_back": noop, "tuple_unsplit": "tuple_split_back", "replace_function": noop}),
        (67, {"unsplit": "split_back", "split_back": noop, "tuple_unsplit": noop, "tuple_split_back": noop,
              "replace_function": "split_back"}),
    ]:
        named.update(original)
        named.update({name: original[new] if isinstance(new, str) else new for name, new in swaps.items()})
        jax.clear_caches()
        try:
            named["run"](*records()[:2])
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError(f"line {line} did not raise KeyReuseError")
    print("ok")

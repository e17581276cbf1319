import functools

import jax
import flax.linen as nn
import jax.numpy as jnp
from jax import random


@jax.jit
def noisy_average(key, x):
    total = jnp.zeros_like(x)
    for _ in range(4):
        total = total + x + random.normal(key, x.shape)  # error: JAX302
    return total / 4


def sampling_loop(key, x, steps):
    t = 0
    while t < steps:
        x = x + jax.random.normal(key, x.shape)  # error: JAX302
        t += 1
    return x


def alias_in_loop(key, xs):
    out = []
    for x in xs:
        k = key
        out.append(x + jax.random.uniform(k, ()))  # error: JAX302
    return out


def closed_over_in_fori(key, x):
    def body(i, acc):
        return acc + jax.random.normal(key, ())  # error: JAX302

    return jax.lax.fori_loop(0, 3, body, x)


def carried_unsplit_in_fori(key, x):
    def body(i, carry):
        k, acc = carry
        return k, acc + jax.random.normal(k, ())  # error: JAX302

    return jax.lax.fori_loop(0, 3, body, (key, x))


def closed_over_in_scan(key, xs):
    def step(carry, x):
        return carry + jax.random.normal(key, ()), x  # error: JAX302

    return jax.lax.scan(step, 0.0, xs)


def same_key_for_every_element(key, n):
    return [jax.random.normal(key, ()) for _ in range(n)]  # error: JAX302


GLOBAL_KEY = jax.random.key(0)


@jax.jit
def noisy(x):
    return x + jax.random.normal(GLOBAL_KEY, x.shape)  # error: JAX302


def perturbed(x, noise_key):
    per_row = jax.random.split(GLOBAL_KEY, x.shape[0])  # error: JAX302 (the module's key, run by noisy_rows)
    return x + jax.random.normal(noise_key, x.shape) + jax.vmap(lambda k: jax.random.normal(k, ()))(per_row)


@jax.jit
def noisy_rows(x, noise_key):
    return perturbed(x, noise_key)  # reported where `perturbed` draws, not again here


class Jitter:
    def apply(self, x):
        return x + jax.random.normal(GLOBAL_KEY, x.shape)  # error: JAX302 (a method a jitted function runs)


JITTER = Jitter()


@jax.jit
def jittered(x):
    return JITTER.apply(x)


@jax.jit
def scaled(x):
    def inner(y):
        return y * jax.random.uniform(GLOBAL_KEY, ())  # error: JAX302 (nested, run while tracing)

    return inner(x)


def eager_noise(x):
    return x + jax.random.normal(GLOBAL_KEY, x.shape)  # ok: never traced (an eager draw, once per call)


def fresh_noise(x, key):
    return x + jax.random.normal(key, x.shape)


@jax.jit
def fresh_rows(x, seed):
    return fresh_noise(x, jax.random.key(seed))  # ok: the key is made inside the trace, from an argument


def noise_every_leaf(grads, rng):
    noise = lambda g: g + jax.random.normal(rng, g.shape)
    return jax.tree_util.tree_map(noise, grads)  # error: JAX302


def noise_every_leaf_inline(grads, rng):
    return jax.tree.map(lambda g: g + jax.random.normal(rng, g.shape), grads)  # error: JAX302


# --- near misses ---


def shuffle_in_step(batch, key):
    # one permutation for every leaf keeps observations and labels aligned: meant to be shared
    return jax.tree.map(lambda x: jax.random.permutation(key, x), batch)


def noise_one_leaf(x, rng):
    # a lone array is a tree of one leaf: the key is consumed once
    return jax.tree.map(lambda g: g + jax.random.normal(rng, g.shape), jnp.asarray(x))


def noise_per_leaf_key(grads, rng):
    leaves, treedef = jax.tree.flatten(grads)
    keys = jax.tree.unflatten(treedef, list(jax.random.split(rng, len(leaves))))
    return jax.tree.map(lambda g, k: g + jax.random.normal(k, g.shape), grads, keys)


def carried_and_split_in_fori(key, x):
    def body(i, carry):
        k, acc = carry
        k, sub = jax.random.split(k)
        return k, acc + jax.random.normal(sub, ())

    return jax.lax.fori_loop(0, 3, body, (key, x))


def closed_over_in_vmap(key, xs):
    return jax.vmap(lambda x: x + jax.random.normal(key, ()))(xs)


def skips_before_splitting(key, batches):
    out = []
    for batch in batches:
        if batch is None:
            continue
        key, sub = jax.random.split(key)
        out.append(jax.random.normal(sub, ()))
    return out


def one_key_per_element(key, n):
    return [jax.random.normal(k, ()) for k in jax.random.split(key, n)]


def noisy_with_key(key, x):
    return x + jax.random.normal(key, x.shape)


@jax.jit
def split_in_loop(key, x):
    total = jnp.zeros_like(x)
    for _ in range(4):
        key, subkey = random.split(key)
        total = total + x + random.normal(subkey, x.shape)
    return total / 4


def fold_in_loop(key, n):
    return [jax.random.normal(jax.random.fold_in(key, i), ()) for i in range(n)]


def per_item_keys(key, n):
    out = []
    for k in jax.random.split(key, n):
        out.append(jax.random.normal(k, ()))
    return out


def first_success(key, n):
    for _ in range(n):
        return jax.random.normal(key, ())
    return None


def conditional_split(key, items):
    out = []
    for item in items:
        if item:
            key, sub = jax.random.split(key)
            out.append(jax.random.normal(sub, ()))
    return out


def each_key_of_a_split(key, x):
    first, second, third = jax.random.split(key, 3)
    keys = jax.random.split(first, 3)
    out = [jax.random.normal(k, x.shape) for k in keys]  # ok: a new key per element
    subkeys = jax.random.split(second, 4)
    for i, subkey in enumerate(subkeys):
        out.append(jax.random.uniform(subkey, ()) + i)  # ok
    key = jax.random.split(third, 2)
    for key in key:  # the loop target shadows the batch
        out.append(jax.random.normal(key, ()))  # ok
    return out


def keys_by_name(keys: dict, x):
    return {name: jax.random.normal(k, x.shape) for name, k in keys.items()}  # ok


def outer_step(it, state):
    key, total = state

    def draw(k, _):
        k, sub = jax.random.split(k)
        return k, jax.random.normal(sub, (4,))

    _, ys = jax.lax.scan(draw, key, None, length=3)  # error: JAX302
    return key, total + ys.sum()  # the outer carry hands back the key the inner scan consumed


def outer_step_split(it, state):
    key, total = state
    key, inner = jax.random.split(key)

    def draw(k, _):
        k, sub = jax.random.split(k)
        return k, jax.random.normal(sub, (4,))

    _, ys = jax.lax.scan(draw, inner, None, length=3)  # ok: a new key each step
    return key, total + ys.sum()


def run_outer(key):
    jax.lax.fori_loop(0, 3, outer_step_split, (key, 0.0))
    return jax.lax.fori_loop(0, 3, outer_step, (key, 0.0))  # error: JAX301


def keep_going(state):
    count, key, total = state
    return (count < 3) & (jax.random.uniform(key) < 0.9)  # error: JAX302


def keep_going_on_total(state):
    count, key, total = state
    return (count < 3) & (total < 10.0)  # ok: the condition reads a value the body drew


def advance(state):
    count, key, total = state
    key, sub = jax.random.split(key)
    return count + 1, key, total + jax.random.uniform(sub)


def run_while(key):
    first = jax.lax.while_loop(keep_going, advance, (0, key, 0.0))
    return jax.lax.while_loop(cond_fun=keep_going_on_total, body_fun=advance, init_val=first)


class Sampler:
    def __init__(self, seed):
        self.key = jax.random.key(seed)
        self.scale = 2.0

    def sample(self):
        return jax.random.normal(self.key, (3,)) * self.scale  # error: JAX302

    def sample_through_a_name(self):
        key = self.key
        return jax.random.uniform(key, (3,))  # error: JAX302


class SplittingSampler:
    def __init__(self, key):
        self.key = key

    def sample(self):
        self.key, sub = jax.random.split(self.key)  # ok: the key is replaced on every call
        return jax.random.normal(sub, (3,))


class ReseededSampler:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def sample(self):
        return jax.random.normal(self.key, (3,))  # ok: `reseed` replaces the key between calls

    def reseed(self, seed):
        self.key = jax.random.key(seed)


def folded_per_iteration(key, x):
    out = []
    for i in range(3):
        out.append(jax.random.normal(jax.random.fold_in(key, i), x.shape))  # ok: i differs
    return out


def folded_by_step(i, state):
    key, total = state
    noise = jax.random.normal(jax.random.fold_in(key, i), (3,))  # ok: the step index differs
    return key, total + noise.sum()


def folded_with_constants(i, state):
    key, total = state
    y = 0.0
    for j in range(3):
        y = y + jax.random.normal(jax.random.fold_in(key, j), (3,)).sum()  # error: JAX302
    return key, total + y  # the key comes back unchanged: the next step folds the same j


def run_folds(key):
    a = jax.lax.fori_loop(0, 3, folded_by_step, (key, 0.0))
    return a, jax.lax.fori_loop(0, 3, folded_with_constants, (key, 0.0))


def carried_in_a_new_dict(carry, x):
    total = carry["total"] + jax.random.uniform(carry["key"], ())  # error: JAX302
    return {**carry, "total": total}, total


def carried_in_a_dict_display(carry, x):
    total = carry["total"] + jax.random.uniform(carry["key"], ())  # error: JAX302
    return {"key": carry["key"], "total": total}, total


def split_into_a_new_dict(carry, x):
    key, sub = jax.random.split(carry["key"])
    total = carry["total"] + jax.random.uniform(sub, ())  # ok: the new key goes back
    return {**carry, "key": key, "total": total}, total


def run_dict_carries(key, xs):
    a = jax.lax.scan(carried_in_a_new_dict, {"key": key, "total": 0.0}, xs)
    b = jax.lax.scan(carried_in_a_dict_display, {"key": key, "total": 0.0}, xs)  # error: JAX301
    return a, b, jax.lax.scan(split_into_a_new_dict, {"key": key, "total": 0.0}, xs)  # error: JAX301


def inner_folds_unsplit(key, x):
    draw = lambda i, acc: acc + jax.random.normal(jax.random.fold_in(key, i), ())  # noqa: E731
    return key, jax.lax.fori_loop(0, 3, draw, x)  # error: JAX302


def inner_folds_split(key, x):
    key, sub = jax.random.split(key)
    draw = lambda i, acc: acc + jax.random.normal(jax.random.fold_in(sub, i), ())  # noqa: E731
    return key, jax.lax.fori_loop(0, 3, draw, x)  # ok: a new key each outer step


def constant_fold_of_a_closed_over_key(key, xs):
    def body(carry, x):
        return carry + jax.random.normal(jax.random.fold_in(key, 0), ()), x  # error: JAX302

    return jax.lax.scan(body, 0.0, xs)


def run_inner_folds(key, xs):
    a = jax.lax.scan(inner_folds_unsplit, key, xs)
    return a, jax.lax.scan(inner_folds_split, key, xs)  # ok: folding does not consume the key


class Sampler:
    """numpyro#1036: a key made in `__init__` that every method draws from."""

    def __init__(self, seed):
        self.rng_key = jax.random.key(seed)

    def sample_alpha(self):
        return jax.random.normal(self.rng_key, (3,))  # error: JAX302 (every call, the same key)

    def sample_beta(self):
        return jax.random.normal(self.rng_key, (3,))  # error: JAX302


def draw_both():
    sampler = Sampler(0)  # a new object (and key) on each call of draw_both
    a = sampler.sample_alpha()  # ok: not "every call of draw_both"; the methods are reported
    b = sampler.sample_beta()  # error: JAX301 (both methods draw from the one key)
    return a, b


# Bodies given leading arguments by `functools.partial`: the carry and the step index are the
# parameters after the bound ones.


def scan_step(scale, key, _):
    k1, k2 = random.split(key)  # error: JAX302 (the carry hands `key` back unsplit)
    return key, scale * (random.normal(k1, ()) + random.uniform(k2, ()))


def carried_unsplit_in_partial_scan(key):
    return jax.lax.scan(functools.partial(scan_step, 2.0), key, None, length=3)


def fori_step(key, i, acc):
    return acc + random.normal(random.fold_in(key, i), ())  # ok: folds the step index in


def folded_in_partial_fori(key, x):
    return jax.lax.fori_loop(0, 3, functools.partial(fori_step, key), x)


def scan_step_split(scale, key, _):
    key, sub = random.split(key)  # ok: a new key handed back on each step
    return key, scale * random.normal(sub, ())


def split_in_partial_scan(key):
    return jax.lax.scan(functools.partial(scan_step_split, 2.0), key, None, length=3)


def noisy_step(key, i, x):
    return x + random.normal(key, x.shape)  # error: JAX302 (bound by `partial`: the same every step)


def same_noise_each_step(key, x):
    return jax.lax.fori_loop(0, 3, functools.partial(noisy_step, key), x)


def noisy_step_keyword(i, x, key):
    return x + random.normal(key, x.shape)  # error: JAX302 (bound by keyword: the same every step)


def same_noise_by_keyword(key, x):
    return jax.lax.fori_loop(0, 3, functools.partial(noisy_step_keyword, key=key), x)


def record_subkey(key, i, xs):
    # each step picks another subkey of the same split: the draws differ, the key is reused
    k = random.split(key, 5)[i]  # error: JAX302 (KeyReuseError under jax_debug_key_reuse)
    return xs.at[i].set(random.normal(k, (2,)))


def record_first(key, i, xs):
    draw = lambda: xs.at[i].set(random.normal(key, (2,)))  # noqa: E731
    return jax.lax.cond(i == 0, draw, lambda: xs)  # error: JAX302 (a branch: only the steps that take it)


def recorded(key):
    a = jax.lax.fori_loop(0, 5, functools.partial(record_subkey, key), jnp.zeros((5, 2)))
    b = jax.lax.fori_loop(0, 5, functools.partial(record_first, key), jnp.zeros((5, 2)))
    return a, b


def outer_body(step, state):
    key, total = state
    inner = jax.lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(key, (4,)), jnp.zeros(4))  # error: JAX302
    return key, total + jnp.sum(inner)


def carries_its_key_unsplit(key):
    return jax.lax.fori_loop(0, 3, outer_body, (key, jnp.float32(0.0)))


def folding_helper_body(step, state):
    key, total = state

    def inner():
        return sum(jax.random.normal(jax.random.fold_in(key, i), (4,)) for i in range(3))

    y = inner()  # error: JAX302 (named `key`, as the body unpacks it)
    return key, total + jnp.sum(y)


def carries_a_key_it_folds(key):
    return jax.lax.fori_loop(0, 3, folding_helper_body, (key, jnp.float32(0.0)))


def noisy_check(state):
    count, key, total = state
    draws = [jax.random.normal(jax.random.fold_in(key, i), (2,)) for i in range(2)]  # error: JAX302
    return (count < 3) & jnp.all(jnp.isfinite(draws[0] + draws[1]))


def runs_a_noisy_check(key):
    return jax.lax.while_loop(noisy_check, lambda s: (s[0] + 1, s[1], s[2] + 1.0), (0, key, 0.0))


def draws_through_a_dict_item(state, n):
    out = []
    for _ in range(n):
        state["key"], sub = jax.random.split(state["key"])  # ok: the item takes the new key
        out.append(jax.random.normal(sub))
    return out


def splits_an_item_into_another(state, n):
    out = []
    for _ in range(n):
        state["other"], sub = jax.random.split(state["key"])  # error: JAX302
        out.append(jax.random.normal(sub))
    return out


def draw_and_store(state):
    state["key"], sub = jax.random.split(state["key"])
    return jax.random.normal(sub, ())


def draw_only(state):
    return jax.random.normal(state["key"], ())


@jax.jit
def samples_through_helpers(key):
    state = {"key": key}
    kept, repeated = [], []
    for _ in range(3):
        kept.append(draw_and_store(state))  # ok: the helper stores a new key back into the dict
        repeated.append(draw_only(state))  # error: JAX302
    return kept, repeated


def maybe_given(x, key=None):
    key = GLOBAL_KEY if key is None else key
    return x + jax.random.normal(key, x.shape)  # ok: the jitted caller always passes a key


@jax.jit
def given_step(x, key):
    return maybe_given(x, key)


class HeldSampler:
    def __init__(self, key):
        self.key = key

    def sample(self, shape):
        return jax.random.normal(self.key, shape)  # error: JAX302 (advice: pass a key in; storing one would leak)


HELD_SAMPLER = HeldSampler(jax.random.key(0))


@jax.jit
def from_held(x):
    return x + HELD_SAMPLER.sample(x.shape)


class NoisyDense(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(4)(x)
        return x + 0.1 * jax.random.normal(GLOBAL_KEY, x.shape)  # error: JAX302 (run by jitted `train_noisy`)


noisy_dense = NoisyDense()


@jax.jit
def train_noisy(params, x):
    return jnp.mean(noisy_dense.apply(params, x) ** 2)


def start_noisy(x):
    params = noisy_dense.init(jax.random.key(1), x)  # the eager `init` runs `__call__` first
    return train_noisy(params, x)  # error: JAX301 (`init` drew from GLOBAL_KEY too)


@jax.checkpoint
def remat_noise(x):
    return x + jax.random.normal(GLOBAL_KEY, x.shape)  # error: JAX302 (checkpoint keeps its trace)


def noise_by_default(x, key=GLOBAL_KEY):
    return x + jax.random.normal(key, x.shape)


@jax.jit
def default_step(x):
    return noise_by_default(x)  # error: JAX302 (the default key, made when the def ran)


def made_by_default(x, key=jax.random.key(3)):
    return x + jax.random.normal(key, x.shape)


def augmented(x, steps):
    views = []
    for _ in range(steps):
        views.append(made_by_default(x))  # error: JAX302 (the default key on every iteration)
    return views


def augmented_with_keys(x, key, steps):
    return [made_by_default(x, k) for k in jax.random.split(key, steps)]  # ok: a key each


@jax.jit
def given_default_step(x, key):
    return noise_by_default(x, key)  # ok: the caller's key


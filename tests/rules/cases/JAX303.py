import jax
import jax.numpy as jnp
from jax import lax

SEED = 0


def sample_paths(x0):
    paths = []
    for _ in range(3):
        key = jax.random.PRNGKey(0)  # error: JAX303
        paths.append(x0 + jax.random.normal(key, x0.shape))
    return jnp.stack(paths)


def comprehension(x0):
    return [jax.random.normal(jax.random.key(SEED), x0.shape) for _ in range(3)]  # error: JAX303


def scan_body(carry, x):
    key = jax.random.key(42)  # error: JAX303
    return carry + jax.random.normal(key, ()), x


def run(xs):
    return lax.scan(scan_body, 0.0, xs)


# --- near misses ---


def created_once(x0):
    key = jax.random.PRNGKey(0)
    paths = []
    for _ in range(3):
        key, subkey = jax.random.split(key)
        paths.append(x0 + jax.random.normal(subkey, x0.shape))
    return jnp.stack(paths)


def seed_per_iteration(x0):
    return [jax.random.normal(jax.random.key(i), x0.shape) for i in range(3)]


def per_config_data(configs):
    out = []
    for m, n in configs:
        key = jax.random.key(0)
        out.append(jax.random.normal(key, (m, n)))
    return out


@jax.jit
def fixed_projection(x):
    key = jax.random.key(0)
    return x @ jax.random.normal(key, (x.shape[-1], 4))


def body_with_index(i, carry):
    key = jax.random.key(i)
    return carry + jax.random.normal(key, ())


def run_fori(x):
    return lax.fori_loop(0, 3, body_with_index, x)


@jax.jit
def folded_per_iteration_in_a_fori_body(key):
    def body(it, state):
        key, total = state
        y = jnp.zeros(4)
        for i in range(3):
            k = jax.random.fold_in(jax.random.key(0), i)  # error: JAX303 (the same three keys every step)
            y = y + jax.random.normal(k, (4,))
        return key, total + jnp.sum(y)

    return jax.lax.fori_loop(0, 3, body, (key, jnp.float32(0.0)))[1]


@jax.jit
def seeded_by_the_step_index(key):
    def body(it, total):
        for i in range(3):
            k = jax.random.fold_in(jax.random.key(it), i)  # ok: the step index seeds it
            total = total + jax.random.normal(k, ())
        return total

    return jax.lax.fori_loop(0, 3, body, 0.0)


SEED = 0


def dropout_apply(params, inputs, **kwargs):
    """stax's layer protocol: the key comes in `kwargs` (jax#170)."""
    rng = kwargs.get("rng", None)
    rng = jax.random.PRNGKey(SEED)  # error: JAX303
    keep = jax.random.bernoulli(rng, 0.5, inputs.shape)
    return jnp.where(keep, inputs * 2.0, 0.0)


def noisy(x, key):
    key = jax.random.key(0)  # error: JAX303
    return x + jax.random.normal(key, x.shape)


def noisy_with_a_default(x, key=None):
    if key is None:
        key = jax.random.key(0)  # ok: only where no key was given
    return x + jax.random.normal(key, x.shape)


def reseeded(x, key, seed):
    key = jax.random.key(seed)  # ok: the caller's seed
    return x + jax.random.normal(key, x.shape)


def fresh_name(x, key):
    base = jax.random.key(0)  # ok: not the key it was given
    return x + jax.random.normal(base, x.shape) + jax.random.normal(key, x.shape)


def noisy_unless_deterministic(x, key, deterministic=False):
    if deterministic:
        key = jax.random.key(0)  # ok: only on the deterministic calls
    return x + jax.random.normal(key, x.shape)


FIXED_SEED = False


def noisy_under_a_global_flag(x, key):
    if FIXED_SEED:
        key = jax.random.key(0)  # ok: a flag of the module, not every call
    return x + jax.random.normal(key, x.shape)


def noisy_with_a_fallback(x, **kwargs):
    try:
        rng = kwargs["rng"]
    except KeyError:
        rng = jax.random.key(0)  # ok: only when no key is given
    return x + jax.random.normal(rng, x.shape)


def stax_dropout(rate, mode="train"):
    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng", None)
        if mode == "train":
            rng = jax.random.PRNGKey(SEED)  # error: JAX303
            keep = jax.random.bernoulli(rng, rate, inputs.shape)
            return jnp.where(keep, inputs / rate, 0.0)
        return inputs

    return apply_fun


def retry_until_done(retries):
    # the loop makes the same key each time, but nothing in it draws from the key
    while retries > 0:
        key = jax.random.PRNGKey(0)
        retries -= 1
    return key


def scan_body_unused_key(carry, x):
    key = jax.random.key(42)
    return carry + x, x


def run_unused(xs):
    return lax.scan(scan_body_unused_key, 0.0, xs)



def per_row_noise(x):
    return x + jax.random.normal(jax.random.key(0), x.shape)  # error: JAX303 (every row of the vmap)


def noisy_rows(xs):
    return jax.vmap(per_row_noise)(xs)


def per_row_steps(x):
    y = x
    for i in range(3):
        k = jax.random.fold_in(jax.random.key(0), i)  # error: JAX303 (the steps differ, the rows do not)
        y = y + jax.random.normal(k, x.shape)
    return y


def stepped_rows(xs):
    return jax.vmap(per_row_steps)(xs)


def per_row_indexed(x, index):
    key = jax.random.fold_in(jax.random.key(0), index)  # ok: folded with the mapped index
    return x + jax.random.normal(key, x.shape)


def indexed_rows(xs):
    return jax.vmap(per_row_indexed)(xs, jnp.arange(xs.shape[0]))


def per_row_given(x, key):
    return x + jax.random.normal(key, x.shape)  # ok: each row gets its own key


def keyed_rows(xs, key):
    return jax.vmap(per_row_given)(xs, jax.random.split(key, xs.shape[0]))


def row_folded_in_two_steps(x, i):
    k = jax.random.key(0)
    k = jax.random.fold_in(k, i)  # ok: folded with the mapped index
    return x + jax.random.normal(k, x.shape)


def row_by_split_index(x, i):
    keys = jax.random.split(jax.random.key(0), 8)  # ok: each element picks its own key
    return x + jax.random.normal(keys[i], x.shape)


def row_by_data(x):
    key = jax.random.fold_in(jax.random.key(0), x[0].astype(jnp.int32))  # ok: folded with mapped data
    return x + jax.random.normal(key, x.shape)


def perturb(key, x, i):
    return x + jax.random.normal(jax.random.fold_in(key, i), x.shape)


def row_handed_on(x, i):
    return perturb(jax.random.key(0), x, i)  # ok: the helper folds the mapped index in


def row_by_axis_index(x):
    key = jax.random.fold_in(jax.random.key(0), jax.lax.axis_index("batch"))  # ok: one per element
    return x + jax.random.normal(key, x.shape)


def row_never_drawn(x):
    key = jax.random.key(0)  # ok: nothing draws from it
    return x * jax.random.key_data(key).shape[0]


def row_named_key(x):
    key = jax.random.PRNGKey(3)  # error: JAX303 (bound to a name, then drawn)
    return x + jax.random.uniform(key, x.shape)


def mapped_rows(xs):
    idx = jnp.arange(xs.shape[0])
    return (
        jax.vmap(row_folded_in_two_steps)(xs, idx),
        jax.vmap(row_by_split_index)(xs, idx),
        jax.vmap(row_by_data)(xs),
        jax.vmap(row_handed_on)(xs, idx),
        jax.vmap(row_by_axis_index, axis_name="batch")(xs),
        jax.vmap(row_never_drawn)(xs),
        jax.vmap(row_named_key)(xs),
    )


def keyword_seed(x):
    total = 0.0
    for _ in range(3):
        key = jax.random.PRNGKey(seed=0)  # error: JAX303 (the seed given by keyword)
        total = total + x * jax.random.normal(key, ())
    return total


def row_two_keys(x):
    k1, k2 = jax.random.split(jax.random.key(0))  # error: JAX303 (split, both halves drawn)
    return x + jax.random.normal(k1, x.shape) + jax.random.uniform(k2, x.shape)


def row_constant_index(x):
    keys = jax.random.split(jax.random.key(0), 3)  # error: JAX303 (indexed by a constant)
    return x + jax.random.normal(keys[1], x.shape)


def split_rows(xs):
    return jax.vmap(row_two_keys)(xs), jax.vmap(row_constant_index)(xs)


@jax.vmap
def split_per_element(seed):
    key = jax.random.key(0)  # error: JAX303
    k1, k2 = jax.random.split(key)  # `k2` unused: `k1` is still the same for every element
    return jax.random.bits(k1)


@jax.vmap
def seeded_per_element(seed):
    k1, k2 = jax.random.split(jax.random.key(seed))
    return jax.random.bits(k1)


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x0 = jnp.zeros(4)
    xs = jnp.zeros((3, 4))

    def same(rows):
        rows = jnp.asarray(rows)
        return all(bool(jnp.array_equal(rows[0], row)) for row in rows)

    def differ(rows):
        rows = jnp.asarray(rows)
        return not bool(jnp.array_equal(rows[0], rows[1]))

    # the marked keys give the same numbers on every iteration, step, call or row
    assert same(fns["sample_paths"](x0))
    assert same(fns["comprehension"](x0))
    _, steps = lax.scan(lambda c, x: (c, fns["scan_body"](0.0, x)[0]), 0.0, jnp.arange(3.0))
    assert same(steps)  # line 21: each step of the scan draws the same number
    one_step = float(fns["folded_per_iteration_in_a_fori_body"](jax.random.key(1))) / 3
    keys = [jax.random.fold_in(jax.random.key(0), i) for i in range(3)]
    assert jnp.allclose(one_step, sum(jax.random.normal(k, (4,)).sum() for k in keys), rtol=1e-4)
    inputs = jnp.ones(6)
    assert same([fns["dropout_apply"](None, inputs, rng=jax.random.PRNGKey(seed)) for seed in (1, 2)])
    assert same([fns["noisy"](x0, jax.random.key(seed)) for seed in (1, 2)])
    apply_fun = fns["stax_dropout"](0.5)
    assert same([apply_fun(None, inputs, rng=jax.random.PRNGKey(seed)) for seed in (1, 2)])
    assert same(fns["noisy_rows"](xs))
    assert same(fns["stepped_rows"](xs))
    assert same(fns["mapped_rows"](xs)[6])  # `row_named_key`
    assert jnp.allclose(fns["keyword_seed"](jnp.float32(1.0)), 3 * jax.random.normal(jax.random.PRNGKey(0), ()))
    two_keys, constant_index = fns["split_rows"](xs)
    assert same(two_keys) and same(constant_index)
    assert same(fns["split_per_element"](jnp.arange(3)))
    # near misses: a new key per iteration, row or call
    assert differ(fns["created_once"](x0))
    assert differ(fns["seed_per_iteration"](x0))
    assert [a.shape for a in fns["per_config_data"]([(2, 3), (4, 5)])] == [(2, 3), (4, 5)]
    assert fns["fixed_projection"](jnp.ones((2, 3))).shape == (2, 4)
    assert fns["run_fori"](jnp.float32(0.0)).shape == ()
    assert fns["seeded_by_the_step_index"](jax.random.key(0)).shape == ()
    assert differ([fns["noisy_with_a_default"](x0, jax.random.key(seed)) for seed in (1, 2)])
    assert differ([fns["reseeded"](x0, None, seed) for seed in (1, 2)])
    assert differ([fns["fresh_name"](x0, jax.random.key(seed)) for seed in (1, 2)])
    assert differ([fns["noisy_unless_deterministic"](x0, jax.random.key(seed)) for seed in (1, 2)])
    assert differ([fns["noisy_under_a_global_flag"](x0, jax.random.key(seed)) for seed in (1, 2)])
    assert differ([fns["noisy_with_a_fallback"](x0, rng=jax.random.key(seed)) for seed in (1, 2)])
    assert jnp.array_equal(fns["stax_dropout"](0.5, mode="test")(None, inputs), inputs)
    assert fns["retry_until_done"](2).shape == (2,)
    assert fns["run_unused"](jnp.arange(3.0))[0] == 3.0
    assert differ(fns["indexed_rows"](xs))
    assert differ(fns["keyed_rows"](xs, jax.random.key(0)))
    for rows in fns["mapped_rows"](jnp.arange(12.0).reshape(3, 4))[:5]:
        assert differ(rows)
    assert differ(fns["seeded_per_element"](jnp.arange(3)))
    print("ok")

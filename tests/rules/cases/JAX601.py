import functools
import itertools

import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((x * w) ** 2)


def scale(x, factor):
    return x * factor


def train(w, batches):
    for x in batches:
        step = jax.jit(lambda p: p - 0.01 * jax.grad(loss)(p, x))  # error: JAX601
        w = step(w)
    return w


def sweep(x, factors):
    outs = []
    for factor in factors:
        outs.append(jax.jit(functools.partial(scale, factor=factor))(x))  # error: JAX601
    return outs


def per_batch_grads(w, batches):
    return [jax.jit(jax.grad(loss))(w, x) for x in batches]  # error: JAX601


def nested_in_loop(x, n):
    for i in range(n):

        def shifted(v):
            return v + i

        x = jax.jit(shifted)(x)  # error: JAX601
    return x


def decorated_in_loop(w, batches):
    for x in batches:

        @jax.jit  # error: JAX601
        def step(p):
            return p - 0.01 * jax.grad(loss)(p, x)

        w = step(w)
    return w


def passed_to_a_helper(w, batches, run):
    for x in batches:
        update = jax.jit(lambda p: p * x)  # error: JAX601
        w = run(update, w)
    return w


def predict(x):
    return jax.jit(lambda v: jnp.tanh(v) * 2.0)(x)  # error: JAX601


def assigned_then_called(params, x):
    apply = jax.jit(lambda p, v: jnp.dot(p, v))  # error: JAX601
    return apply(params, x)


def normalize(x):
    def inner(v):
        return v / jnp.linalg.norm(v)

    return jax.pmap(inner)(x)  # error: JAX601


class Model:
    def apply(self, x):
        return x * 2.0

    def run(self, xs):
        return [jax.jit(self.apply)(x) for x in xs]  # error: JAX601


# --- near misses ---


def cached_module_function(w, batches):
    for x in batches:
        w = jax.jit(scale)(w, x)  # the same function every time: the cache is reused
    return w


def closure_defined_outside_the_loop(x, n):
    def body(v):
        return v * 2.0

    for _ in range(n):
        x = jax.jit(body)(x)
    return x


def stored_by_key(factors):
    table = {}
    for factor in factors:
        fn = jax.jit(functools.partial(scale, factor=factor))
        table[factor] = fn
    return table


def autotune(x):
    configs = itertools.product((4, 8, 16), (1024, 2048))
    for blocks, tile in configs:

        @jax.jit
        def kernel(v):
            return v.reshape(blocks, -1) * tile

        x = kernel(x)
    return x


def few_learning_rates(w, g):
    return [jax.jit(lambda p: p - lr * g)(w) for lr in (0.1, 0.01)]


def amortised_in_a_loop(w, batches):
    update = jax.jit(lambda p, x: p - 0.01 * x)  # once per call of this function, used many times
    for x in batches:
        w = update(w, x)
    return w


def factory(factor):
    return jax.jit(lambda v: v * factor)  # built once per call and returned: used many times


def collect(factors):
    fns = []
    for factor in factors:
        fns.append(jax.jit(functools.partial(scale, factor=factor)))  # kept, not re-created per use
    return fns


def main():
    return jax.jit(lambda: jnp.ones(3))()  # an entry point runs once


def test_ones():
    assert jax.jit(lambda: jnp.ones(3))().shape == (3,)


@jax.jit
def traced(x):
    return jax.jit(lambda v: v + 1)(x)  # inside jit: inlined, never compiled on its own


step_once = jax.jit(lambda v: v * 2.0)(jnp.ones(2))


def predict(x):
    @jax.jit  # error: JAX601
    def step(v):
        return v * 2.0 + 1.0

    return step(x)


def make_predictor():
    @jax.jit  # ok: returned, made once by the caller
    def step(v):
        return v * 2.0

    return step


def main_once(x):
    @jax.jit  # ok: an entry point (`main*`, tests) runs once
    def step(v):
        return v + 1.0

    return [step(x)]


class Scorer:
    def score(self):
        return 1.0


def repeated_bound_method():
    scorer = Scorer()
    # a short literal loop is a sweep only where the jitted function depends on the loop: here
    # each iteration compiles the same method of the same object again
    return [jax.jit(scorer.score)() for _ in range(3)]  # error: JAX601


def sweep_of_bound_methods(scorers):
    total = 0.0
    for scorer in (Scorer(), Scorer()):
        total += jax.jit(scorer.score)()  # ok: a sweep, each iteration a different object
    return total


def short_training_loop(w):
    # `range(5)` is short, but the lambda reads no name the loop changes: its `w` is its own
    # parameter, so every step compiles the same computation again
    for step in range(5):
        g = jax.jit(lambda w: w * 2.0)(w)  # error: JAX601
        w = w - 0.01 * g
    return w


def sweep_through_a_closure(w):
    return [jax.jit(lambda v: v * scale)(w) for scale in (1.0, 2.0)]  # ok: each scale compiles once


class Trainer:
    def __init__(self):
        self.lr = 0.1

    def step(self, w):
        return w - self.lr


def learning_rate_sweep(w):
    trainer = Trainer()
    results = []
    for lr in (0.3, 0.1, 0.01):
        trainer.lr = lr
        results.append(jax.jit(trainer.step)(w))  # ok: a sweep, the loop changes the object
    return results


def make_step(lr):
    def step(w, g):
        return w - lr * g

    return step


def pick_loss():
    return loss  # a module-level function: the same object every time


def factory_in_a_loop(w, g, epochs):
    for epoch in range(epochs):
        step = jax.jit(make_step(0.1 * 0.9**epoch))  # error: JAX601
        w = step(w, g)
    return w


def module_function_from_a_helper(w, batches):
    for x in batches:
        w = w - jax.jit(pick_loss())(w, x)
    return w


if __name__ == "__main__":
    import logging

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above

    class Compiles(logging.Handler):
        def __init__(self):
            super().__init__()
            self.names = []

        def emit(self, record):
            message = record.getMessage()
            if message.startswith("Compiling "):
                self.names.append(message.split(" ")[1])

    compiles = Compiles()
    logging.getLogger("jax").addHandler(compiles)
    fns["jax"].config.update("jax_log_compiles", True)

    def compiled(call, name):
        """How many programs named `jit(name)` (or `pmap(name)`) `call` compiles."""
        compiles.names.clear()
        call()
        return sum(1 for compiled_name in compiles.names if compiled_name.endswith(f"({name})"))

    w, x = jnp.ones(2), jnp.ones(2)
    batches = [x, x, x]
    # each marked call compiles again on every iteration (or every call), for the same computation
    assert compiled(lambda: fns["train"](w, batches), "<lambda>") == 3
    assert compiled(lambda: fns["sweep"](x, [2.0, 2.0, 2.0]), "scale") == 3
    assert compiled(lambda: fns["per_batch_grads"](w, batches), "loss") == 3
    assert compiled(lambda: fns["nested_in_loop"](x, 3), "shifted") == 3
    assert compiled(lambda: fns["decorated_in_loop"](w, batches), "step") == 3
    assert compiled(lambda: fns["passed_to_a_helper"](w, batches, lambda update, v: update(v)), "<lambda>") == 3
    assert compiled(lambda: (fns["predict"](x), fns["predict"](x)), "step") == 2  # line 163 (line 63's is shadowed)
    assert compiled(lambda: (fns["assigned_then_called"](w, x), fns["assigned_then_called"](w, x)), "<lambda>") == 2
    assert compiled(lambda: (fns["normalize"](x[None]), fns["normalize"](x[None])), "_fun") == 2  # pmap's program
    assert compiled(lambda: Model().run(batches), "apply") == 3
    assert compiled(fns["repeated_bound_method"], "score") == 3
    assert compiled(lambda: fns["short_training_loop"](w), "<lambda>") == 5
    assert compiled(lambda: fns["factory_in_a_loop"](w, x, 3), "step") == 3
    # near misses: one compilation per distinct computation
    assert compiled(lambda: fns["cached_module_function"](w, batches), "scale") == 1
    assert compiled(lambda: fns["closure_defined_outside_the_loop"](x, 3), "body") == 1
    assert compiled(lambda: fns["autotune"](jnp.ones(16 * 2048)), "kernel") == 6  # six configurations
    assert compiled(lambda: fns["few_learning_rates"](w, x), "<lambda>") == 2
    assert compiled(lambda: fns["amortised_in_a_loop"](w, batches), "<lambda>") == 1
    made = fns["factory"](2.0)
    assert compiled(lambda: [made(x) for _ in range(3)], "<lambda>") == 1
    made = fns["collect"]([1.0, 2.0])
    assert compiled(lambda: [f(x) for f in made for _ in range(2)], "scale") == 2
    assert compiled(fns["main"], "<lambda>") == 1
    assert compiled(fns["test_ones"], "<lambda>") == 1
    assert compiled(lambda: fns["traced"](x), "<lambda>") == 0  # inlined into `traced`
    made = fns["make_predictor"]()
    assert compiled(lambda: [made(x) for _ in range(3)], "step") == 1
    assert compiled(lambda: fns["main_once"](x), "step") == 1
    assert compiled(lambda: fns["sweep_of_bound_methods"](None), "score") == 2
    assert compiled(lambda: fns["sweep_through_a_closure"](w), "<lambda>") == 2
    assert jnp.allclose(jnp.stack(fns["learning_rate_sweep"](w))[:, 0], jnp.array([0.7, 0.9, 0.99]))
    assert compiled(lambda: fns["module_function_from_a_helper"](w, batches), "loss") == 1
    assert step_once.tolist() == [2.0, 2.0]
    fns["jax"].config.update("jax_log_compiles", False)
    print("ok")

# A class attribute is state shared by the class and all its objects: changed in a compiled
# function (`Tracker.calls += 1`, `type(self).calls += 1`), it changes only while JAX traces,
# once per compilation, not on each call (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


class Tracker:
    calls = 0


@jax.jit
def tracked_step(x):
    Tracker.calls += 1  # error: JAX104
    return x + 1.0


class Scorer:
    scored = 0

    def score(self, x):
        type(self).scored += 1  # error: JAX104
        return jnp.tanh(x)


SCORER = Scorer()
score = jax.jit(SCORER.score)


# near misses


class Fresh:
    traced = 0

    def score(self, x):
        self.__class__.traced += 1  # jitted anew on every call below: it counts the calls
        return x * 2.0


FRESH = Fresh()


def run_fresh(x):
    return jax.jit(FRESH.score)(x)  # error: JAX601


class Rejitted:  # as `Fresh`, jitted anew in a method of its own (not run below)
    hits = 0

    def score(self, x):
        self.__class__.hits += 1
        return x

    def run(self, x):
        return jax.jit(self.score)(x)  # error: JAX601


def eager_step(x):
    Tracker.calls += 1
    return x + 1.0


if __name__ == "__main__":
    for _ in range(3):
        tracked_step(jnp.ones(2))
        score(jnp.ones(2))
        run_fresh(jnp.ones(2))
    assert Tracker.calls == 1 and Scorer.scored == 1  # once per compilation
    assert Fresh.traced == 3
    eager_step(jnp.ones(2))
    assert Tracker.calls == 2
    print("ok")

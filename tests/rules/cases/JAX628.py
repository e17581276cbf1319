# A flax linen module's `apply` has no random keys unless `rngs=` gives some: when the arguments
# make a `Dropout` (rate above zero) non-deterministic, or the module calls `self.make_rng`, flax
# raises `InvalidRngError` ("Dropout_0 needs PRNG for "dropout""). `init` falls back on its
# `params` key and works (measured with flax beside JAX 0.10.2).
import flax.linen as nn
import jax
import jax.numpy as jnp

x = jnp.ones((2, 3))
key = jax.random.key(0)


class Classifier(nn.Module):
    rate: float = 0.1

    @nn.compact
    def __call__(self, x, train: bool = False):
        x = nn.Dense(4)(x)
        return nn.Dropout(self.rate)(x, deterministic=not train)


class SetUp(nn.Module):
    train: bool = False

    def setup(self):
        self.dense = nn.Dense(4)
        self.drop = nn.Dropout(0.2, deterministic=not self.train)

    def __call__(self, x):
        return self.drop(self.dense(x))


class Block(nn.Module):
    rate: float

    @nn.compact
    def __call__(self, x, train):
        deterministic = not train
        return nn.Dropout(rate=self.rate)(nn.Dense(4)(x), deterministic)


class Tower(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dense(4)(x)
        return Block(rate=0.3)(x, train=train)


class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + jax.random.normal(self.make_rng("noise"), x.shape)


class AlwaysDrops(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(x)


classifier = Classifier()
variables = classifier.init(key, x)
setup_variables = SetUp().init(key, x)
tower_variables = Tower().init(key, x, train=False)
empty = AlwaysDrops().init(key, x)


def by_keyword():
    return classifier.apply(variables, x, train=True)  # error: JAX628


def by_position():
    return classifier.apply(variables, x, True)  # error: JAX628


def from_a_field():
    return SetUp(train=True).apply(setup_variables, x)  # error: JAX628


def in_a_submodule():
    return Tower().apply(tower_variables, x, True)  # error: JAX628


def own_draw():
    return Noisy().apply({}, x)  # error: JAX628


def constant_mode():
    return AlwaysDrops().apply(empty, x)  # error: JAX628


# near misses


class Guarded(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        if train:  # a branch: not every run draws
            x = nn.Dropout(0.5, deterministic=False)(x)
        return x


class GivenKeys(nn.Module):
    @nn.compact
    def __call__(self, x, key):
        key_a, key_b = jax.random.split(key)
        a = nn.Dropout(0.5, deterministic=False)(x, rng=key_a)  # a key given: no stream drawn
        b = nn.Dropout(0.5)(x, False, key_b)
        return a + b


def given_keys():
    return GivenKeys().apply({}, x, jax.random.key(2))


def evaluation():
    return classifier.apply(variables, x), classifier.apply(variables, x, train=False)


def with_keys():
    return classifier.apply(variables, x, train=True, rngs={"dropout": jax.random.key(1)})


def no_rate():
    return Classifier(rate=0.0).apply(variables, x, train=True)


def unknown_mode(train):
    return classifier.apply(variables, x, train=train)


def unknown_rate(rate):
    return Classifier(rate=rate).apply(variables, x, train=True)


def forwarded(**kwargs):
    return classifier.apply(variables, x, **kwargs)


def initialised_training():
    return Classifier().init(jax.random.key(4), x, train=True)


def guarded():
    return Guarded().apply({}, x, train=False)


if __name__ == "__main__":
    evaluation(), with_keys(), no_rate(), unknown_mode(False), unknown_rate(0.0)
    forwarded(train=False), initialised_training(), guarded(), given_keys()
    for failing in (by_keyword, by_position, from_a_field, in_a_submodule, own_draw, constant_mode):
        try:
            failing()
        except Exception as error:
            assert type(error).__name__ == "InvalidRngError", error
        else:
            raise AssertionError(f"{failing.__name__}: expected InvalidRngError")
    print("as labelled")

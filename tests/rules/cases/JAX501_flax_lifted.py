"""Flax linen's lifted transformations on a module class: `nn.remat(Block)` stages the new
class's `__call__`, `nn.jit(Block)` compiles it. Their `static_argnums` count the module as 0, so
`static_argnums=(1,)` makes `x` static, not the flag after it (flax#3946).

Near misses: the module's own fields, shapes, a flag marked static at the right position, a
flag left to its default.
"""

import flax.linen as nn
import jax.numpy as jnp


class Block(nn.Module):
    features: int = 4
    use_bias: bool = True

    @nn.compact
    def __call__(self, x, train):
        if self.use_bias:  # ok: a field of the module, static
            x = x + 1.0
        if x.ndim == 3:  # ok: a shape
            x = x.reshape(x.shape[0], -1)
        if train:  # error: JAX501
            x = x * 0.5
        return nn.Dense(self.features)(x)


Block = nn.remat(Block, static_argnums=(1,))


class Static(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        if train:  # ok: static at position 2 (the module is 0)
            x = x * 0.5
        return nn.Dense(4)(x)


RematStatic = nn.checkpoint(Static, static_argnums=(2,))


class Defaulted(nn.Module):
    @nn.compact
    def __call__(self, x, deterministic=True):
        if deterministic:  # ok: not reported while callers may leave it to its default
            return x
        return nn.Dropout(0.1)(x, deterministic=False)


RematDefaulted = nn.remat(Defaulted)


class Compiled(nn.Module):
    @nn.compact
    def __call__(self, x):
        return jnp.zeros(int(x.sum()))  # error: JAX503


FastCompiled = nn.jit(Compiled)


class Encoder(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        if train:  # ok: `methods=` lifts `encode` only
            x = x * 0.5
        return self.encode(x)

    def encode(self, x):
        return x + 1.0


RematEncoder = nn.remat(Encoder, methods=["encode"])


class Normed(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        use_running_average = not train  # error: JAX503 (no logical_not fix: BatchNorm wants a bool)
        return nn.BatchNorm(use_running_average=use_running_average)(x)


RematNormed = nn.remat(Normed)


if __name__ == "__main__":
    import jax

    x = jnp.ones((2, 3))

    def run(cls, *args):
        module = cls()
        return module.apply(module.init(jax.random.key(0), *args), *args)

    for cls, args, error in [
        (Block, (x, True), jax.errors.TracerBoolConversionError),
        (FastCompiled, (x,), jax.errors.ConcretizationTypeError),
        (RematNormed, (x, True), jax.errors.TracerBoolConversionError),
    ]:
        try:
            run(cls, *args)
        except error:
            pass
        else:
            raise AssertionError(f"{cls.__name__} did not raise {error.__name__}")
    assert run(RematStatic, x, True).shape == (2, 4)
    assert jnp.array_equal(run(RematDefaulted, x), x)
    assert jnp.array_equal(run(RematEncoder, x, True), x * 0.5 + 1.0)
    print("ok")

# The `fwd` rule of a `jax.custom_vjp` returns the pair `(output, residuals)`: returning the
# output alone (an array, the argument itself) or a tuple of another length raises `TypeError`
# ("Custom VJP fwd rule ... must produce a pair") when JAX differentiates the function; the
# function runs eagerly without it (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_gradient(x):
    return x


def clip_fwd(x):
    return x  # error: JAX615


def clip_bwd(_, g):
    return (jnp.clip(g, -1.0, 1.0),)


clip_gradient.defvjp(clip_fwd, clip_bwd)


def soft(x):
    return jnp.sin(x)


soft = jax.custom_vjp(soft)


def soft_fwd(x):
    return jnp.sin(x)  # error: JAX615


soft.defvjp(soft_fwd, lambda x, g: (g * jnp.cos(x),))


@jax.custom_vjp
def triple(x):
    return x * 3.0


def triple_fwd(x):
    return x * 3.0, x, None  # error: JAX615


triple.defvjp(triple_fwd, lambda res, g: (g * 3.0,))


# near misses


@jax.custom_vjp
def scaled(x):
    return x * 2.0


def scaled_fwd(x):
    out = (x * 2.0, None)
    return out


scaled.defvjp(scaled_fwd, lambda res, g: (g * 2.0,))


@jax.custom_vjp
def paired(xy):
    return xy[0] * xy[1]


def paired_fwd(xy):
    first, second = xy
    return first * second, (first, second)


paired.defvjp(paired_fwd, lambda res, g: ((g * res[1], g * res[0]),))


if __name__ == "__main__":
    x = jnp.ones(3)
    print(jax.grad(lambda v: scaled(v).sum())(x), jax.grad(lambda v: paired((v, v)).sum())(x))
    for function in (clip_gradient, soft, triple):
        function(x)  # eagerly, the fwd rule is not run
        try:
            jax.grad(lambda v: function(v).sum())(x)
        except TypeError as error:
            assert "fwd rule" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print("ok")

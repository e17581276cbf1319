# `jax.jit` of a function this module does not define (a flax module's `apply`, a library
# function): without its signature, a keyword named in `static_argnames` and a position in
# `static_argnums` are still static, and an unhashable value there raises `ValueError:
# Non-hashable static arguments are not supported` (measured with JAX 0.10.2 and flax).
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(4)(x)
        return nn.BatchNorm(use_running_average=not train)(x)


net = Net()
x = jnp.arange(24.0).reshape(8, 3)
variables = net.init(jax.random.PRNGKey(0), x, train=False)
forward = jax.jit(net.apply, static_argnames=("train", "mutable"))
evaluate = jax.jit(net.apply, static_argnames=("train",))
padded = jax.jit(jnp.pad, static_argnums=(1,))


def train_step(variables, x):
    return forward(variables, x, train=True, mutable=["batch_stats"])  # error: JAX606


def train_step_tuple(variables, x):
    return forward(variables, x, train=True, mutable=("batch_stats",))  # a tuple: hashable


def evaluate_step(variables, x):
    return evaluate(variables, x, train=False)  # `train` static and hashable


def pad_list(x):
    return padded(x, [(1, 1), (0, 0)])  # error: JAX606


def pad_tuple(x):
    return padded(x, ((1, 1), (0, 0)))


if __name__ == "__main__":
    for hazard in (lambda: train_step(variables, x), lambda: pad_list(x)):
        try:
            hazard()
        except ValueError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise ValueError")
    out, updates = train_step_tuple(variables, x)
    assert out.shape == (8, 4) and "batch_stats" in updates
    assert evaluate_step(variables, x).shape == (8, 4)
    assert pad_tuple(x).shape == (10, 3)
    print("ok")

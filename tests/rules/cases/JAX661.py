# `eqx.filter_vmap`'s default `in_axes` maps every array, a layer's weights included: a layer
# passed to share raises `ValueError` where the sizes differ (measured with equinox 0.13.8).
import equinox as eqx
import jax
import jax.numpy as jnp

model = eqx.nn.Linear(3, 2, key=jax.random.key(0))


@eqx.filter_vmap
def predict(model, x):
    return model(x)


class Scale(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        return self.w * x


@eqx.filter_vmap()
def scaled(module, x):
    return module(x)


def run():
    return predict(model, jnp.ones((5, 3)))  # error: JAX661


def run_scaled():
    return scaled(Scale(jnp.ones(4)), jnp.ones((5, 4)))  # error: JAX661


def by_call(layer, x):
    return layer(x)


def run_by_call():
    mapped = eqx.filter_vmap(by_call)
    return mapped(model, jnp.ones((5, 3)))  # error: JAX661


def run_at_once():
    return eqx.filter_vmap(predict_plain)(model, jnp.ones((5, 3)))  # error: JAX661


def predict_plain(model, x):
    return model(x)


# near misses


def run_shared_by_call():
    return eqx.filter_vmap(predict_plain, in_axes=(None, 0))(model, jnp.ones((5, 3)))


@eqx.filter_vmap(in_axes=(None, 0))
def shared(model, x):
    return model(x)


@eqx.filter_vmap
def make_ensemble(key):
    return eqx.nn.Linear(3, 2, key=key)


@eqx.filter_vmap
def ensemble_predict(members, x):
    return members(x)


def run_ensemble():
    members = make_ensemble(jax.random.split(jax.random.key(1), 5))
    return ensemble_predict(members, jnp.ones((5, 3)))


if __name__ == "__main__":
    for raising in (run, run_scaled, run_by_call, run_at_once):
        try:
            raising()
        except ValueError as error:
            assert "inconsistent sizes" in str(error)
        else:
            raise AssertionError("expected ValueError")
    print(shared(model, jnp.ones((5, 3))).shape, run_ensemble().shape, run_shared_by_call().shape)
    print("ok")

# A PartitionSpec shards over the named axes of its mesh: a name the mesh does not have raises
# `ValueError`, in `NamedSharding` when it is made, in `shard_map` when the mapped function is
# called (measured with JAX 0.10.2 on 8 forced host devices).
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("data", "model"))
grid = jax.make_mesh((4, 2), axis_names=("x", "y"))


def shard_weights():
    return jax.device_put(jnp.ones((16, 8)), NamedSharding(mesh, P("data", "tensor")))  # error: JAX413


def shard_grid():
    return NamedSharding(grid, spec=P(("x", "data"), None))  # error: JAX413


@partial(jax.shard_map, mesh=mesh, in_specs=P("batch"), out_specs=P("data"))  # error: JAX413
def per_shard(a):
    return a * 2


def mapped():
    return jax.shard_map(lambda a: a, mesh=grid, in_specs=P("x"), out_specs=P("data"))(jnp.ones(8))  # error: JAX413


def flat_names():
    return Mesh(np.array(jax.devices()).reshape(2, 4), ("data",))  # error: JAX413


def three_names():
    shape = (2, 4)
    return jax.make_mesh(shape, ("data", "model", "pipe"))  # error: JAX413


# near misses


def one_per_dimension():
    return Mesh(np.array(jax.devices()).reshape(-1), ("data",)), jax.make_mesh((8,), ("data",))


def right_names():
    return NamedSharding(mesh, P(("data", "model"), None)), NamedSharding(grid, P("x", "y")), NamedSharding(mesh, P())


def given(a_mesh):
    return NamedSharding(a_mesh, P("anything"))


@partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"))
def summed(a):
    return a + 1


if __name__ == "__main__":
    right_names()
    one_per_dimension()
    given(jax.make_mesh((8,), ("anything",)))
    print(summed(jnp.ones(8)).shape)
    for failing in (shard_weights, shard_grid, lambda: per_shard(jnp.ones(8)), mapped, flat_names, three_names):
        try:
            failing()
        except ValueError as error:
            print("ValueError", str(error)[:40])
        else:
            raise AssertionError("expected ValueError")

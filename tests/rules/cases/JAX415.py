# A tuple `in_specs` gives one spec per positional argument: with another number than the
# function requires, calling the mapped function raises `ValueError` ("pytree structure error:
# different lengths of tuple"), measured with JAX 0.10.2 on 8 forced host devices.
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("dp",))


def local_sq_err(pred, target):
    return jnp.sum((pred - target) ** 2, keepdims=True)


sq_err = jax.shard_map(local_sq_err, mesh=mesh, in_specs=(P("dp"),), out_specs=P("dp"))  # error: JAX415


@partial(jax.shard_map, mesh=mesh, in_specs=(P("dp"), P(), P()), out_specs=P("dp"))  # error: JAX415
def scaled(x, w):
    return x * w


# near misses

both = jax.shard_map(local_sq_err, mesh=mesh, in_specs=(P("dp"), P("dp")), out_specs=P("dp"))
shared = jax.shard_map(local_sq_err, mesh=mesh, in_specs=P("dp"), out_specs=P("dp"))


def with_default(x, scale=2.0):
    return x * scale


defaulted = jax.shard_map(with_default, mesh=mesh, in_specs=(P("dp"),), out_specs=P("dp"))


if __name__ == "__main__":
    a = jnp.ones(16)
    print(both(a, a).shape, shared(a, a).shape, defaulted(a).shape)
    for failing in (lambda: sq_err(a, a), lambda: scaled(a, jnp.ones(()))):
        try:
            failing()
        except ValueError as error:
            print("ValueError", str(error)[:50])
        else:
            raise AssertionError("expected ValueError")

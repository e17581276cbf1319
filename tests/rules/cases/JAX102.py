import logging
import pathlib
import sys

import jax
from absl import logging as absl_logging

logger = logging.getLogger(__name__)
METRICS = open("metrics.log", "a")


@jax.jit
def step(params, grads):
    logger.info("updating %s", grads)  # error: JAX102
    logging.debug("step")  # error: JAX102
    sys.stdout.write("tick\n")  # error: JAX102
    absl_logging.warning("grads: %s", grads)  # error: JAX102
    with open("log.txt", "a") as handle:  # error: JAX102
        handle.write("x")
    return params - 0.1 * grads


@jax.jit
def write_to_a_module_file(x):
    METRICS.write(f"{x}\n")  # error: JAX102
    return x + 1.0


def per_example(x):
    with open("per_example.log", "a") as fh:
        fh.write(f"{x}\n")  # error: JAX102
        fh.write(str(x) + "\n")  # error: JAX102
        fh.write("{}\n".format(x))  # error: JAX102
        fh.writelines([f"{x}\n"])  # error: JAX102
        fh.write(f"shape {x.shape}\n")  # static: written on each call, as it reads
        fh.write("tick\n")
        fh.write(f"{x:.3f}")  # error: JAX108 (a tracer with a format spec: TypeError, not a write)
        fh.write(x)  # a tracer itself: TypeError (write() takes a str)
    return x + 1.0


batched = jax.vmap(per_example)


# --- near misses ---


def eager_writer(x):
    with open("eager.log", "a") as fh:
        fh.write(f"{x}\n")
    return x


@jax.jit
def not_a_file(x, sink):
    sink.write(f"{x}")  # an object of unknown type: it may be a callback
    return x


@jax.jit
def configured(x, mode="fast"):
    logger.warning("falling back to the slow path")
    return x * 2


def train(params, grads):
    logger.info("eager step %s", grads)
    return step(params, grads)


@jax.jit
def not_a_logger(x, results):
    results.info("no logger here")
    return x


def logs_unmapped_entry(batch):
    logging.warning("scale %s", batch["scale"])  # ok: `scale` is not mapped (in_axes None): a value
    logging.warning("x %s", batch["x"])  # error: JAX102
    return batch["x"] * batch["scale"]


def log_entries(x, scale):
    return jax.vmap(logs_unmapped_entry, in_axes=({"x": 0, "scale": None},))({"x": x, "scale": scale})


@jax.jit
def appends_through_a_path(x):
    with pathlib.Path("log.txt").open("a") as fh:  # error: JAX102
        fh.write(f"{x}\n")
    return x + 1


class FileLogger:
    def __init__(self, path):
        self.fh = open(path, "w")
        self.sink = None

    def step(self, x):
        self.fh.write(f"{x}\n")  # error: JAX102
        return x * 2

    def relay(self, x):
        self.sink.write(f"{x}\n")  # ok: `sink` is not known to be a file
        return x

    def attach(self, sink):
        self.sink = sink


FILE_LOGGER = FileLogger("steps.txt")
logged_step = jax.jit(FILE_LOGGER.step)
relayed = jax.jit(FILE_LOGGER.relay)


@jax.jit
def traced_shapes(params, x):
    logger.info("tracing: x.shape=%s dtype=%s, %d layers", x.shape, x.dtype, len(params))
    logger.debug("compiled for %s", x.shape)
    logger.info("forward pass")  # error: JAX102
    return x

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


if __name__ == "__main__":
    import contextlib
    import io
    import os
    import tempfile

    import jax.numpy as jnp

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    metrics_path = os.path.abspath(METRICS.name)  # opened above, where the script started
    steps_path = os.path.abspath(FILE_LOGGER.fh.name)
    os.chdir(tempfile.mkdtemp())  # the files below are written there

    class Records(logging.Handler):
        def __init__(self):
            super().__init__(logging.DEBUG)
            self.messages = []

        def emit(self, record):
            self.messages.append(record.getMessage())

    records = Records()
    logging.getLogger().addHandler(records)
    logging.getLogger().setLevel(logging.DEBUG)
    assert absl_logging.get_absl_logger().propagate  # absl's records reach the root handler

    def read(path):
        with open(path) as fh:
            return fh.read()

    p, g = jnp.ones(2), jnp.ones(2)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fns["step"](p, g)
        fns["step"](p, g)
    # each side effect ran once, while tracing, with tracers for values
    assert out.getvalue() == "tick\n" and read("log.txt") == "x"
    updating = [m for m in records.messages if m.startswith("updating")]
    assert len(updating) == 1 and "Tracer" in updating[0], updating
    assert records.messages.count("step") == 1
    absl_records = [m for m in records.messages if m.startswith("grads")]
    assert len(absl_records) == 1 and "Tracer" in absl_records[0], absl_records
    METRICS.flush()
    before = read(metrics_path).count("Tracer")
    fns["write_to_a_module_file"](1.0)
    fns["write_to_a_module_file"](1.0)
    METRICS.flush()
    assert read(metrics_path).count("Tracer") == before + 1
    try:
        fns["batched"](jnp.ones((2, 2)))
    except TypeError:  # line 37: a format spec on a tracer
        pass
    else:
        raise AssertionError("batched did not raise TypeError")
    lines = read("per_example.log").splitlines()
    assert len(lines) >= 4 and all("Tracer" in line for line in lines[:4]), lines  # lines 31-34
    assert lines[4:6] == ["shape (2,)", "tick"], lines
    records.messages.clear()
    fns["log_entries"](jnp.ones(2), 3.0)
    entries = [m for m in records.messages if m.startswith(("scale", "x "))]
    assert entries[0] == "scale 3.0" and "Tracer" in entries[1], entries
    fns["appends_through_a_path"](1.0)
    assert read("log.txt").count("Tracer") == 1
    logged_step(1.0)
    logged_step(1.0)
    FILE_LOGGER.fh.flush()
    assert read(steps_path).count("Tracer") == 1
    records.messages.clear()
    fns["traced_shapes"]([1, 2], jnp.ones(3))
    fns["traced_shapes"]([1, 2], jnp.ones(3))
    assert records.messages.count("forward pass") == 1
    # near misses
    assert fns["eager_writer"](1.5) == 1.5 and read("eager.log") == "1.5\n"

    @jax.tree_util.register_static
    class Sink:
        def __init__(self):
            self.lines = []

        def write(self, text):
            self.lines.append(text)

        def info(self, text):
            self.lines.append(text)

    sink = Sink()
    fns["not_a_file"](1.0, sink)
    fns["not_a_logger"](1.0, sink)
    assert len(sink.lines) == 2
    FILE_LOGGER.attach(sink)
    relayed(1.0)
    assert float(fns["configured"](1.0)) == 2.0
    records.messages.clear()
    fns["train"](p, g)
    fns["train"](p, g)
    assert len([m for m in records.messages if m.startswith("eager step")]) == 2
    print("ok")

import logging
import sys

import jax
from absl import logging as absl_logging

logger = logging.getLogger(__name__)


@jax.jit
def step(params, grads):
    logger.info("updating %s", grads)  # error: JAX102
    logging.debug("step")  # error: JAX102
    sys.stdout.write("tick\n")  # error: JAX102
    absl_logging.warning("grads: %s", grads)  # error: JAX102
    with open("log.txt", "a") as handle:  # error: JAX102
        handle.write("x")
    return params - 0.1 * grads


# --- near misses ---


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

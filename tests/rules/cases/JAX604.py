import time
import timeit
from time import perf_counter

import jax
import jax.numpy as jnp


@jax.jit
def matmul_chain(a):
    return jnp.tanh(a @ a)


fast_step = jax.jit(lambda a: a * 2.0)


def benchmark(a, n_iter=3):
    matmul_chain(a).block_until_ready()
    start = time.perf_counter()
    for _ in range(n_iter):
        out = matmul_chain(a)
    elapsed = time.perf_counter() - start  # error: JAX604
    return elapsed / n_iter, out


def eager_op(a):
    t0 = time.time()
    b = jnp.dot(a, a)
    t1 = time.time()  # error: JAX604
    return b, t1 - t0


def alias_and_timeit(a):
    t0 = timeit.default_timer()
    fast_step(a)
    return timeit.default_timer() - t0  # error: JAX604


def per_iteration(a, steps):
    times = []
    for _ in range(steps):
        t = perf_counter()
        a = fast_step(a)
        times.append(perf_counter() - t)  # error: JAX604
    return times, a


def timed_with_timeit(a):
    return timeit.timeit(lambda: matmul_chain(a), number=10)  # error: JAX604


def reduced_on_device(a):
    start = time.time()
    out = matmul_chain(a)
    total = out.sum() * 2
    return total, time.time() - start  # error: JAX604


vmapped = jax.vmap(jnp.sin)


def transformed(a):
    start = time.perf_counter()
    out = vmapped(a)
    return time.perf_counter() - start, out  # error: JAX604


# --- near misses ---


def blocked(a, n_iter=3):
    start = time.perf_counter()
    for _ in range(n_iter):
        out = matmul_chain(a).block_until_ready()
    return time.perf_counter() - start, out


def blocked_after(a):
    start = time.perf_counter()
    out = matmul_chain(a)
    jax.block_until_ready(out)
    return time.perf_counter() - start


def blocked_in_tree_map(a):
    start = time.perf_counter()
    out = {"y": matmul_chain(a)}
    jax.tree_util.tree_map(lambda x: x.block_until_ready(), out)
    return time.perf_counter() - start


def converted(a):
    start = time.perf_counter()
    loss = float(matmul_chain(a).sum())
    return time.perf_counter() - start, loss


def printed(a):
    start = time.time()
    out = matmul_chain(a)
    print(out)
    return time.time() - start


def unknown_call_may_block(a, log):
    start = time.time()
    out = matmul_chain(a)
    log(out)
    return time.time() - start


def not_a_duration(a):
    stamp = time.time()
    out = matmul_chain(a)
    return out, stamp, time.time()


def no_jax_work(items):
    start = time.time()
    total = sum(len(i) for i in items)
    return total, time.time() - start


def timestamps_then_branch(a):
    start = time.time()
    out = matmul_chain(a)
    if out.sum() > 0:
        pass
    return time.time() - start


def timed_with_timeit_blocked(a):
    return timeit.timeit(lambda: matmul_chain(a).block_until_ready(), number=10)

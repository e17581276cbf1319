# A database connection used inside a jitted function runs its statements only while JAX traces
# the function, and `sqlite3` cannot bind a tracer as a parameter: it raises
# `sqlite3.ProgrammingError` (measured with JAX 0.10.2).
import sqlite3

import jax
import jax.numpy as jnp

db = sqlite3.connect(":memory:")
db.execute("CREATE TABLE metrics (loss REAL, note TEXT)")
cursor = db.cursor()


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    db.execute("INSERT INTO metrics VALUES (?, ?)", (loss, "step"))  # error: JAX102
    return w - 0.1 * loss


@jax.jit
def noted_step(w):
    cursor.execute("INSERT INTO metrics VALUES (?, ?)", (0.0, "noted"))  # error: JAX102
    return w * 2


# near misses


@jax.jit
def pure_step(w, x):
    return w - 0.1 * jnp.mean((x @ w) ** 2)


def logged_step(w, x):
    w = pure_step(w, x)
    db.execute("INSERT INTO metrics VALUES (?, ?)", (float(w.sum()), "logged"))
    return w


if __name__ == "__main__":
    w, x = jnp.ones(3), jnp.ones((2, 3))
    try:
        train_step(w, x)
    except sqlite3.ProgrammingError:
        pass
    else:
        raise AssertionError("expected sqlite3.ProgrammingError")
    for _ in range(3):
        noted_step(w)
        logged_step(w, x)
    rows = db.execute("SELECT note FROM metrics").fetchall()
    assert rows.count(("noted",)) == 1 and rows.count(("logged",)) == 3  # noted while tracing only
    print("ok")

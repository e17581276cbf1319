"""JAX6xx: compile hygiene and API migrations, and the helpers only they use: calls of jitted
functions (``jitted``), loop trip counts (``loops``), timers (``timing``), NumPy vs ``jax.numpy``
(``numpy_api``), deprecated APIs (``migrations``)."""

"""Helpers several rule families share: message wording (``explain``), whether a subscripted
value is a JAX array (``arrays``), facts about statement blocks (``blocks``) and the lifting
plans for ``jnp.where``/``lax.cond``/``while_loop``/``fori_loop`` (``lifting``) and library
functions called through ``jax.jit`` (``library``)."""

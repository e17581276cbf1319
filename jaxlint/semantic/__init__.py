"""The semantic model: what the code means to JAX, computed from the syntax tree alone.

- :mod:`~jaxlint.semantic.scopes` and :mod:`~jaxlint.semantic.imports`: one walk binds every name
  in its scope; qualified names through imports and aliases (``CANONICAL_PREFIXES`` spells JAX's
  aliases, ``jax.remat`` -> ``jax.checkpoint``).
- :mod:`~jaxlint.semantic.model`: which functions JAX traces, discovered from decorators and
  transform calls, then a worklist over the interpreter.
- :mod:`~jaxlint.semantic.dataflow`: the abstract interpreter; :mod:`~jaxlint.semantic.values`
  its value domain; :mod:`~jaxlint.semantic.keys` PRNG key flow; :mod:`~jaxlint.semantic.tracing`
  which parameters a chain of transformations traces; :mod:`~jaxlint.semantic.functions` what is
  known of each function.
- :mod:`~jaxlint.semantic.cross_module`: what one module tells another about the functions it traces.
- The facts about JAX's API, one home each: :mod:`~jaxlint.semantic.transforms` (every
  transformation, its kind, which ones repeat, compile or only trace for shapes) and
  :mod:`~jaxlint.semantic.api` (static queries, array methods, key consumers, Python methods,
  clocks). Facts only one rule family uses live with it (``rules/compile/migrations.py``).
"""

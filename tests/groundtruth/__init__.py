"""jaxlint held against JAX: generated programs, JAX's verdicts on them, and the CI check.

``generator`` (no JAX) makes the programs, ``oracle`` (JAX) judges them, ``verdicts`` stores the
judgements, ``agreement`` (no JAX) compares jaxlint's findings with them, ``known`` holds the CI
sample and the reviewed list of known disagreements; ``bench/differential.py`` is the benchmark.
"""

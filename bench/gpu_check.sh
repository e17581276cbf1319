#!/usr/bin/env bash
# The checks that need a lent GPU machine, as one run (bench/README.md, "On a GPU machine").
#
# Run from the repository root with the wheels of jaxlint, libcst and pathspec in .whl/ (the
# machine reaches no package registry): it installs them beside the machine's own JAX, then, at
# once, (1) the runtime tests on the GPU, the GPU-marked ones included, (2) the ground truth's
# 5,000-program sample judged by this JAX and compared with the stored verdicts and (3) the API
# facts measured by this JAX. Everything it learns is written under $OUT.
set -u
OUT=${OUT:-/tmp/gpu_check}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
{
    nvidia-smi -L
    python3 -c "import sys, jax; print(sys.version); print(jax.__version__, jax.devices())"
    python3 -m pip list 2>/dev/null | grep -iE "^(jax|jaxlib|equinox|flax|optax|numpy|jaxtyping) "
} >"$OUT/env.txt" 2>&1
python3 -m pip install -q --no-index --no-deps --no-cache-dir .whl/*.whl >"$OUT/install.log" 2>&1 || {
    python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl >>"$OUT/install.log" 2>&1 || exit 1
    export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
}

# A copy without jaxlint/, so that `import jaxlint` finds the installed wheel (its rules and fixers
# are subpackages only once installed); the oracle's workers import jaxlint_runtime from the copy.
work=/tmp/jaxlint_work
mkdir -p "$work" && cp -r tests tools examples jaxlint_runtime pyproject.toml "$work" && cd "$work" || exit 1

(JAX_PLATFORMS=cpu timeout 420 python3 tools/measure_jax_api.py --output "$OUT/jax_api.json" \
    >"$OUT/measure.log" 2>&1; echo "exit $?" >>"$OUT/measure.log") &
(timeout 400 python3 -m tests.groundtruth.verdicts --compare "$OUT/drift.json" --sample 5000 \
    --workers 10 >"$OUT/drift.log" 2>&1; echo "exit $?" >>"$OUT/drift.log") &
timeout 300 python3 -m pytest tests/runtime -q -p no:cacheprovider -n 3 -rs >"$OUT/runtime.log" 2>&1
echo "exit $?" >>"$OUT/runtime.log"
wait
cat "$OUT/env.txt"
tail -n 4 "$OUT"/*.log

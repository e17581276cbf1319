"""The stored verdicts: what JAX did with every program of the universe, and which JAX did it.

``python -m tests.groundtruth.verdicts`` runs every program with JAX (the oracle, a pool of
worker processes) and rewrites ``verdicts.json``; ``--only-stale`` re-judges only the programs
whose stored verdict is missing or was made for other source (the generator changed).
``--compare FILE`` stores nothing: it judges (``--sample N`` programs, as ``bench/differential.py``
draws them) with the JAX installed and writes where its verdicts differ from the stored ones, to
tell what another JAX version or machine does differently. Loading the stored verdicts needs no JAX.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

from tests.groundtruth.generator import UNIVERSE_SEED, Program, sample, universe

PATH = Path(__file__).resolve().parent / "verdicts.json"


def load(path: Path = PATH) -> dict[str, Any]:
    """``{"jax": ..., "programs": {id: {"digest", "verdict", "family"?, "evidence"?, "reason"?}}}``."""
    if not path.exists():
        return {"programs": {}}
    return json.loads(path.read_text())


def save(data: dict[str, Any], path: Path = PATH) -> None:
    """One program per line, sorted: diffs stay readable."""
    programs = data["programs"]
    meta = {k: v for k, v in data.items() if k != "programs"}
    lines = ["{"]
    for key, value in sorted(meta.items()):
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append('  "programs": {')
    items = sorted(programs.items())
    for i, (pid, record) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"    {json.dumps(pid)}: {json.dumps(record, sort_keys=True)}{comma}")
    lines += ["  }", "}"]
    path.write_text("\n".join(lines) + "\n")


def stale(programs: list[Program], data: dict[str, Any]) -> list[Program]:
    """Programs whose stored verdict is missing or was made for other source."""
    stored = data.get("programs", {})
    return [p for p in programs if stored.get(p.id, {}).get("digest") != p.digest]


def compare(results: dict[str, dict[str, Any]], data: dict[str, Any], path: Path) -> int:
    """Write the programs whose verdict or family differs from the stored one; print a summary."""
    import jax

    stored = data.get("programs", {})
    changed = {
        pid: {"stored": stored.get(pid), "now": record}
        for pid, record in sorted(results.items())
        if pid in stored
        and (record["verdict"], record.get("family")) != (stored[pid]["verdict"], stored[pid].get("family"))
    }
    meta = {"stored_jax": data.get("jax"), "jax": jax.__version__, "judged": len(results)}
    path.write_text(json.dumps({**meta, "changed": changed}, indent=1, sort_keys=True) + "\n")
    print(
        f"{len(results)} judged with JAX {jax.__version__}; {len(changed)} differ from JAX {data.get('jax')}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.groundtruth.verdicts", description=__doc__)
    parser.add_argument("--workers", type=int, default=2, help="oracle processes (default 2)")
    parser.add_argument("--batch", type=int, default=150, help="programs per worker process")
    parser.add_argument("--only-stale", action="store_true", help="judge only missing or outdated verdicts")
    parser.add_argument("--limit", type=int, help="judge at most this many (for trying it out)")
    parser.add_argument("--dropped", action="store_true", help="also re-judge the programs stored as dropped")
    parser.add_argument("--sample", type=int, metavar="N", help="judge the N programs the differential draws")
    parser.add_argument(
        "--compare", type=Path, metavar="FILE", help="store nothing; write where the verdicts differ to FILE"
    )
    parser.add_argument("ids", nargs="*", help="re-judge only these programs")
    args = parser.parse_args(argv)

    import jax

    from tests.groundtruth.oracle import judge_all

    programs = universe()
    data = load()
    if args.compare:
        todo = sample(programs, args.sample, seed=0) if args.sample else programs
        return compare(
            judge_all(todo[: args.limit], workers=args.workers, batch=args.batch), data, args.compare
        )
    todo = stale(programs, data) if args.only_stale or args.dropped or args.ids else programs
    if args.dropped:
        todo += [
            p
            for p in programs
            if data.get("programs", {}).get(p.id, {}).get("verdict") == "dropped" and p not in todo
        ]
    if args.ids:
        todo += [p for p in programs if p.id in set(args.ids) and p not in todo]
    if args.limit:
        todo = todo[: args.limit]
    start = time.monotonic()

    def progress(done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            elapsed = time.monotonic() - start
            print(f"  {done}/{total} programs, {elapsed:.0f} s", file=sys.stderr, flush=True)

    results = judge_all(todo, workers=args.workers, batch=args.batch, progress=progress)
    keep = {p.id for p in programs}
    full = not (args.only_stale or args.limit or args.dropped or args.ids)
    stored = {} if full else {pid: r for pid, r in data.get("programs", {}).items() if pid in keep}
    for pid, record in results.items():
        record.pop("seconds", None)
        stored[pid] = record
    elapsed = time.monotonic() - start
    data = {
        "jax": jax.__version__,
        "jaxlib": __import__("jaxlib").__version__,
        "python": platform.python_version(),
        "universe_seed": UNIVERSE_SEED,
        "programs": stored,
    }
    save(data)
    verdicts = [r["verdict"] for r in stored.values()]
    print(
        f"{len(results)} programs judged in {elapsed:.0f} s with {args.workers} workers; stored {len(stored)}: "
        f"{verdicts.count('hazard')} hazards, {verdicts.count('clean')} clean, {verdicts.count('dropped')} dropped "
        f"(JAX {jax.__version__}) -> {PATH.relative_to(Path.cwd()) if PATH.is_relative_to(Path.cwd()) else PATH}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Run a project step's command, print its duration, and record it in metrics/run_meta.json.

python scripts/timed.py STEP [--meta metrics/run_meta.json] [--set KEY=VALUE ...] -- COMMAND ...

The meta file collects per-step durations and the run's settings (machine, seed, config)
for the report. The command's exit code is passed on.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from spacy_negation.util import atomic_write_text


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 2**20:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} CPU cores ({cpu}){mem}, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def main() -> int:
    argv = sys.argv[1:]
    if "--" not in argv:
        print("usage: timed.py STEP [--meta FILE] [--set KEY=VALUE ...] -- COMMAND ...", file=sys.stderr)
        return 2
    cut = argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("step")
    parser.add_argument("--meta", type=Path, default=Path("metrics/run_meta.json"))
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args(argv[:cut])
    command = argv[cut + 1:]
    if command and command[0] in ("python", "python3"):
        command[0] = sys.executable  # as spaCy projects do: the environment's Python
    print(f"[{args.step}] {' '.join(command)}", file=sys.stderr, flush=True)
    start = time.time()
    rc = subprocess.call(command)
    seconds = time.time() - start
    print(f"[{args.step}] finished in {seconds:.1f} s (exit code {rc})", file=sys.stderr, flush=True)
    if rc == 0:
        meta = json.loads(args.meta.read_text()) if args.meta.exists() else {}
        meta["machine"] = machine()
        meta.setdefault("steps_seconds", {})[args.step] = round(seconds, 1)
        for item in args.set:
            key, _, value = item.partition("=")
            meta[key] = value
        meta["duration_seconds"] = round(sum(meta["steps_seconds"].values()), 1)
        atomic_write_text(args.meta, json.dumps(meta, indent=2, sort_keys=True))
    return rc


if __name__ == "__main__":
    sys.exit(main())

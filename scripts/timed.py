"""Run a project step's command, print its duration, and record it in metrics/run_meta.json.

python scripts/timed.py STEP [--meta metrics/run_meta.json] [--set KEY=VALUE ...]
    [--config CONFIG [--prefix PREFIX]] -- COMMAND ...

The meta file collects per-step durations and the run's settings (machine, seed, config)
for the report. With --config, the config's path is recorded as "config" and its settings
of CONFIG_SETTINGS as JSON values (a per-corpus setting's key with --prefix, e.g.
bioscope_max_steps). The command's exit code is passed on.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, Optional, Tuple

from spacy_negation.util import atomic_write_text

#: Settings recorded from a training config: meta key -> (config path, takes --prefix).
CONFIG_SETTINGS: Dict[str, Tuple[str, bool]] = {
    "max_steps": ("training.max_steps", True),
    "learn_rate": ("training.optimizer.learn_rate.initial_rate", False),
    "hard_negatives": ("corpora.train.hard_negatives", True),
    "min_word_precision": ("components.negation_cue.decoder.min_word_precision", True),
    "contiguous": ("components.negation_scope.decoder.contiguous", True),
    "scope_bias": ("components.negation_scope.decoder.scope_bias", True),
}


def config_settings(path: Path, prefix: str) -> Dict[str, str]:
    """The recorded settings of a training config that it has (JSON values, as the
    project's vars print them: 3200, 5e-05, true, null).

    path (Path): the config.
    prefix (str): put before the keys of per-corpus settings.
    RETURNS (Dict[str, str]): meta key -> value.
    """
    from spacy.util import load_config

    config = load_config(path, interpolate=True)
    out = {}
    for key, (dotted, prefixed) in CONFIG_SETTINGS.items():
        node: Optional[object] = config
        for part in dotted.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            out[prefix + key if prefixed else key] = json.dumps(node)
    return out


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
    parser.add_argument("--config", type=Path, default=None, help="the training config to record")
    parser.add_argument("--prefix", default="", help="key prefix of the config's per-corpus settings")
    args = parser.parse_args(argv[:cut])
    recorded = {"config": str(args.config), **config_settings(args.config, args.prefix)} if args.config else {}
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
        meta.update(recorded)
        for item in args.set:
            key, _, value = item.partition("=")
            meta[key] = value
        meta["duration_seconds"] = round(sum(meta["steps_seconds"].values()), 1)
        atomic_write_text(args.meta, json.dumps(meta, indent=2, sort_keys=True))
    return rc


if __name__ == "__main__":
    sys.exit(main())

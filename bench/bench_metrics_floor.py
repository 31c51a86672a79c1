"""Lower bounds of the metric commands in CPython: what merely starting the interpreter and
reading every line of the input costs, on the same files as ``bench/bench_metrics.py``
(CD-SCO test gold and perturbed system, *SEM files and FairEval span files, replicated).

Each measure runs in its own process (medians of ``--runs``; CPU seconds = user + system
of that process): ``python -c pass``; a bare ``for line in f`` loop over the gold and the
system file; the same loop splitting each line at tabs (what any *SEM reader that looks
at the columns does at least once). Compare with the package rows of
``results/metrics_speed.md``: a family whose command costs little more than these floors
cannot get much faster in CPython.

    python bench/bench_metrics_floor.py --reps 100 --runs 3
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from spacy_negation.metrics.core import markdown_table

REPO = Path(__file__).resolve().parents[1]

LOOPS = {
    "start-up (`python -c pass`)": "pass",
    "`for line in f` over gold + system": (
        "import sys\n"
        "for p in sys.argv[1:]:\n"
        "    with open(p, encoding='utf-8') as f:\n"
        "        for line in f:\n"
        "            pass\n"),
    "the same, each line split at tabs": (
        "import sys\n"
        "for p in sys.argv[1:]:\n"
        "    with open(p, encoding='utf-8') as f:\n"
        "        for line in f:\n"
        "            line.split('\\t')\n"),
}


def cpu_of(argv: Sequence[str]) -> Tuple[float, float]:
    """CPU seconds (user + system) and peak RSS (MB) of a command run to completion."""
    proc = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(argv)} failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shared", type=Path, default=REPO / ".." / "shared")
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_floor_") as tmp:
        subprocess.run([args.python, str(REPO / "bench" / "bench_metrics.py"), "--build-only", tmp,
                        "--shared", str(args.shared), "--reps", str(args.reps)], check=True)
        work = Path(tmp)
        inputs = {"*SEM files": [work / f"gold_x{args.reps}.txt", work / f"system_x{args.reps}.txt"],
                  "span files": [work / f"spans_x{args.reps}" / side / "spans.tsv"
                                 for side in ("target", "system")]}
        results: Dict[Tuple[str, str], List[float]] = {}
        for _ in range(args.runs):
            for name, files in inputs.items():
                for label, code in LOOPS.items():
                    if code == "pass" and name != "*SEM files":
                        continue
                    cpu, _ = cpu_of([args.python, "-c", code, *map(str, files)])
                    results.setdefault((name, label), []).append(cpu)
        n_lines = {name: sum(sum(1 for _ in p.open("rb")) for p in files)
                   for name, files in inputs.items()}
    print("\n".join(markdown_table([f"input x{args.reps}", "lines", "measure", f"CPU s (median of {args.runs})"],
                                    [[name, str(n_lines[name]), label, f"{statistics.median(values):.3f}"]
                                     for (name, label), values in results.items()])))
    return 0


if __name__ == "__main__":
    sys.exit(main())

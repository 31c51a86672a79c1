"""Does a code change leave training unchanged? Train the same config for a few steps with
the code of two git revisions and compare what they learned.

    python bench/training_identity.py --old 4d0853e --new HEAD --config configs/negation_trf.cfg \
        --paths.train corpus/train.spacy --paths.dev corpus/dev.spacy --steps 200

Each revision is checked out into a temporary git worktree and trained in its own process
with that worktree first on PYTHONPATH (the installed package is not used), seed 0, the
given number of steps and an evaluation at half of them. Prints the dev scores of both
runs at each evaluation and, per component, whether the trained weights are
byte-identical (``to_bytes`` of the final model). Training on one machine is deterministic,
so identical weights after N steps mean the full run is identical too, as long as the
data are; differences print the first differing component. Exit code 0 when everything
is identical, 1 otherwise.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

REPO = Path(__file__).resolve().parents[1]


def run_dir(tmp: Path) -> Path:
    """A working directory with the project's files but no ``spacy_negation`` folder
    (``python -m`` puts the working directory first on sys.path, before PYTHONPATH)."""
    cwd = tmp / "cwd"
    cwd.mkdir(exist_ok=True)
    for entry in REPO.iterdir():
        if entry.name != "spacy_negation" and not (cwd / entry.name).exists():
            (cwd / entry.name).symlink_to(entry)
    return cwd


def train(rev_dir: Path, cwd: Path, config: Path, out: Path, steps: int, overrides: List[str]) -> Dict[str, Any]:
    """Train with the code of ``rev_dir``; returns the per-evaluation scores (from the
    training log) and the component bytes digests of model-last."""
    env = dict(os.environ, PYTHONPATH=str(rev_dir))
    cmd = [sys.executable, "-m", "spacy", "train", str(config), "--output", str(out), "--system.seed", "0",
           "--training.max_steps", str(steps), "--training.eval_frequency", str(max(1, steps // 2)), *overrides]
    proc = subprocess.run(cmd, env=env, cwd=str(cwd), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"training with {rev_dir} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    rows = [line for line in proc.stdout.splitlines() if line.strip()[:1].isdigit()]
    code = ("import hashlib, json, spacy, sys\n"
            "nlp = spacy.load(sys.argv[1])\n"
            "print(json.dumps({name: hashlib.sha256(pipe.to_bytes()).hexdigest() for name, pipe in nlp.pipeline}))\n")
    digests = subprocess.run([sys.executable, "-c", code, str(out / "model-last")], env=env, cwd=str(cwd),
                             capture_output=True, text=True, check=True)
    return {"log": rows, "digests": json.loads(digests.stdout.strip().splitlines()[-1])}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the git revision before the change")
    parser.add_argument("--new", default="HEAD", help="the git revision after it (WORKTREE: this checkout as it is)")
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=200)
    args, overrides = parser.parse_known_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="training-identity-"))
    worktrees: List[Path] = []
    try:
        runs = {}
        for label, rev in (("old", args.old), ("new", args.new)):
            if rev == "WORKTREE":
                rev_dir = REPO
            else:
                rev_dir = tmp / f"src-{label}"
                subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(rev_dir), rev],
                               check=True, capture_output=True)
                worktrees.append(rev_dir)
            runs[label] = train(rev_dir, run_dir(tmp), args.config.resolve(), tmp / f"out-{label}", args.steps,
                                overrides)
        for label, run in runs.items():
            print(f"{label} ({args.old if label == 'old' else args.new}):")
            for row in run["log"]:
                print("   ", row)
        old_d, new_d = runs["old"]["digests"], runs["new"]["digests"]
        same = old_d == new_d and runs["old"]["log"] == runs["new"]["log"]
        for name in sorted(set(old_d) | set(new_d)):
            print(f"{name}: {'identical' if old_d.get(name) == new_d.get(name) else 'DIFFERENT'}")
        print("training identical" if same else "training DIFFERS")
        return 0 if same else 1
    finally:
        for wt in worktrees:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(wt)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""Does a code change leave training unchanged? Train the same config for a few steps with
the code of two git revisions and compare what they learned.

    python bench/training_identity.py --old 4d0853e --new HEAD --config configs/negation_trf.cfg \
        --paths.train corpus/train.spacy --paths.dev corpus/dev.spacy --steps 200

Each revision is checked out into a temporary git worktree (``--new WORKTREE``: this
checkout as it is) and trained in its own process with that code and its entry points
first on PYTHONPATH (the installed package is not used), seed 0, the given number of steps and an evaluation at half
of them. Prints the losses and dev scores of both runs at each evaluation and, per
component, whether the trained weights are byte-identical: each final model is loaded
with its own revision's code (a saved config names the factories, architectures and
scorers of its code) and every parameter array, thinc's and those of the PyTorch modules
inside, is hashed in the order of the model's layers (``to_bytes`` is not deterministic for
a transformer: the same model serializes differently twice). Training on one machine is
deterministic, so identical weights after N steps mean the full run is identical too, as
long as the data are. Exit code 0 when everything is identical, 1 otherwise.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

REPO = Path(__file__).resolve().parents[1]
DIGESTS = """
import hashlib, json, sys
import numpy, spacy

def digest(model):
    h = hashlib.sha256()
    for node in model.walk():
        for name in node.param_names:
            if node.has_param(name):
                h.update(numpy.ascontiguousarray(node.ops.to_numpy(node.get_param(name))).tobytes())
        for shim in node.shims:
            module = getattr(shim, "_model", None)
            if module is not None and hasattr(module, "state_dict"):
                for key, tensor in sorted(module.state_dict().items()):
                    h.update(key.encode())
                    h.update(tensor.detach().cpu().numpy().tobytes())
    return h.hexdigest()

nlp = spacy.load(sys.argv[1])
print(json.dumps({name: digest(pipe.model) for name, pipe in nlp.pipeline if hasattr(pipe, "model")}))
"""


def run_dir(tmp: Path) -> Path:
    """A working directory with the project's files but neither the ``spacy_negation``
    folder nor its egg-info (``python -m`` puts the working directory first on sys.path,
    before PYTHONPATH)."""
    cwd = tmp / "cwd"
    cwd.mkdir(exist_ok=True)
    for entry in REPO.iterdir():
        if entry.name != "spacy_negation" and not entry.name.endswith(".egg-info") and not (cwd / entry.name).exists():
            (cwd / entry.name).symlink_to(entry)
    return cwd


def train(code_dir: Path, cwd: Path, config: Path, out: Path, steps: int, overrides: List[str]) -> List[str]:
    """Train with the code of ``code_dir``; returns the rows of the training log (losses
    and dev scores at each evaluation)."""
    env = dict(os.environ, PYTHONPATH=str(code_dir))
    cmd = [sys.executable, "-m", "spacy", "train", str(config), "--output", str(out), "--system.seed", "0",
           "--training.max_steps", str(steps), "--training.eval_frequency", str(max(1, steps // 2)), *overrides]
    proc = subprocess.run(cmd, env=env, cwd=str(cwd), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"training with {code_dir} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return [line for line in proc.stdout.splitlines() if line.strip()[:1].isdigit()]


def digests(code_dir: Path, cwd: Path, model: Path) -> Dict[str, str]:
    """SHA-256 over each component's parameter arrays in a saved pipeline, loaded with the
    code of ``code_dir``."""
    env = dict(os.environ, PYTHONPATH=str(code_dir))
    proc = subprocess.run([sys.executable, "-c", DIGESTS, str(model)], env=env, cwd=str(cwd),
                          capture_output=True, text=True, check=True)
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the git revision before the change")
    parser.add_argument("--new", default="HEAD", help="the git revision after it (WORKTREE: this checkout as it is)")
    parser.add_argument("--config", type=Path, required=True,
                        help="a config; a relative path is read from each revision's checkout where it exists")
    parser.add_argument("--steps", type=int, default=200)
    args, overrides = parser.parse_known_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="training-identity-"))
    worktrees: List[Path] = []
    try:
        cwd = run_dir(tmp)
        code: Dict[str, Path] = {}
        logs: Dict[str, List[str]] = {}
        for label, rev in (("old", args.old), ("new", args.new)):
            if rev == "WORKTREE":
                code[label] = REPO
            else:
                code[label] = tmp / f"src-{label}"
                subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(code[label]), rev],
                               check=True, capture_output=True)
                worktrees.append(code[label])
                # the revision's own entry points (egg-info on PYTHONPATH shadows the installed
                # package's metadata: spaCy imports every registered factory module)
                subprocess.run([sys.executable, "setup.py", "-q", "egg_info"], cwd=str(code[label]),
                               check=True, capture_output=True)
            # each revision's own copy of the config (a relative path), else the path given
            config = code[label] / args.config if not args.config.is_absolute() else args.config
            if not config.is_file():
                config = args.config.resolve()
            logs[label] = train(code[label], cwd, config, tmp / f"out-{label}", args.steps, overrides)
            print(f"{label} ({rev}):")
            for row in logs[label]:
                print("   ", row)
        old_d, new_d = (digests(code[label], cwd, tmp / f"out-{label}" / "model-last") for label in ("old", "new"))
        for name in sorted(set(old_d) | set(new_d)):
            print(f"{name}: {'identical' if old_d.get(name) == new_d.get(name) else 'DIFFERENT'}")
        same = old_d == new_d and logs["old"] == logs["new"]
        print("training identical" if same else "training DIFFERS")
        return 0 if same else 1
    finally:
        for wt in worktrees:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(wt)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""A model over training seeds (the general English model; with --training-dir and --split
also the clinical one): train, evaluate, and select the seed to ship.

python scripts/general_seeds.py train --seeds 0 1 2 [--config configs/general_l3_distil.cfg]
python scripts/general_seeds.py evaluate [--split NAME=GOLD.spacy:CONVENTION ...]
python scripts/general_seeds.py evaluate --model training/general_teacher/model-best --metrics-dir metrics/general_teacher
python scripts/general_seeds.py select [--split ...] [--training-dir training/clinical --metrics-dir metrics/clinical]
python scripts/general_seeds.py select --split norec=... --split norec_dev=corpus/norec/dev.spacy:cdsco --dev-split norec_dev

Layout: seed N trains into ``training/general/seedN/`` (``spacy train`` with
``--system.seed N``; a finished seed (its ``training-finished.json``) is not trained again; one still
training or that crashed is neither evaluated nor selected) and is
evaluated into ``metrics/general/seedN/on_SPLIT.{txt,json}``: each English test split end to
end in its own annotation convention (``evaluate_model.py --tag-punct --convention CONVENTION``;
by default the four English test splits, BioScope clinical in the BioScope convention; ``--split``
names others, e.g. for the clinical model). With ``--model DIR`` one model that is not a seed
(a teacher) is evaluated the same way into ``METRICS_DIR/on_SPLIT.{txt,json}``. With
``--gold-cues`` the scopes are resolved on the gold cues instead (``evaluate_model.py
--gold-cues``: negation and, where the model resolves it, speculation) into
``seedN/on_SPLIT_goldcues.{txt,json}`` (:data:`GOLD_CUES_SUFFIX`), beside the end-to-end files.
``select`` takes the seed with the median dev score (the score spaCy recorded for the
``model-best`` checkpoint: NIS_tok F1 over the three dev splits; with an even number of
seeds, the lower of the two middle ones), copies its ``model-best`` to
``training/general/model-best`` and its test outputs to ``metrics/general/on_SPLIT.*`` (what
``report-general`` and ``package-general`` read), and records the choice in
``metrics/general/selected.json``. Test scores never take part in the choice.
"""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

from spacy_negation.util import atomic_write_text

SCRIPTS = Path(__file__).resolve().parent
#: The English test splits: name -> (gold file, the convention it is scored in).
TEST_SPLITS: Dict[str, Tuple[str, str]] = {
    "cdsco": ("corpus/test.spacy", "cdsco"),
    "bioscope": ("corpus/bioscope/test.spacy", "bioscope"),
    "sfu": ("corpus/sfu/test.spacy", "sfu"),
    "bioscope_clinical": ("corpus/bioscope_clinical/test.spacy", "bioscope"),
}
#: The dev score of a checkpoint in its meta.json (``performance``).
DEV_SCORE = "neg_nis_tok_f"
#: The suffix of the scores files of an evaluation on gold cues: ``on_SPLIT_goldcues.json``.
GOLD_CUES_SUFFIX = "_goldcues"


#: The file :func:`train` writes into a seed's folder when ``spacy train`` has returned 0
#: (spaCy writes ``model-best`` and ``model-last`` at every evaluation, so neither says
#: that a training ended).
FINISHED = "training-finished.json"


def finished(seed_dir: Path, metrics_dir: Optional[Path] = None) -> bool:
    """Whether a training finished: its :data:`FINISHED` file and ``model-best``; a seed
    trained before the file existed counts when ``metrics_dir/run_meta.json`` records its
    training step (``scripts/timed.py`` records a step only when it returned 0)."""
    if not (seed_dir / "model-best" / "meta.json").is_file():
        return False
    if (seed_dir / FINISHED).is_file():
        return True
    run_meta = None if metrics_dir is None else metrics_dir / "run_meta.json"
    if run_meta is None or not run_meta.is_file() or not (seed_dir / "model-last" / "meta.json").is_file():
        return False
    steps = json.loads(run_meta.read_text(encoding="utf-8")).get("steps_seconds", {})
    return f"train_{seed_dir.parent.name}_{seed_dir.name}" in steps


def seed_dirs(training_dir: Path, metrics_dir: Optional[Path] = None) -> Dict[int, Path]:
    """The finished trainings under the training folder: seed -> its ``model-best``."""
    out = {}
    for path in sorted(training_dir.glob("seed*")):
        best = path / "model-best"
        if path.name[4:].isdigit() and finished(path, metrics_dir):
            out[int(path.name[4:])] = best
    return dict(sorted(out.items()))


def dev_score(model_best: Path, metrics: Sequence[str] = (DEV_SCORE,)) -> float:
    """The mean of ``metrics`` in the dev scores spaCy recorded for a checkpoint
    (``performance`` of its meta.json)."""
    meta = json.loads((model_best / "meta.json").read_text(encoding="utf-8"))
    try:
        return sum(float(meta["performance"][m]) for m in metrics) / len(metrics)
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{model_best}/meta.json has no performance.{' or '.join(metrics)}") from err


def median_seed(scores: Dict[int, float]) -> int:
    """The seed with the median score (the lower middle one for an even count; ties by seed)."""
    if not scores:
        raise ValueError("no trained seed to select from")
    ranked = sorted(scores, key=lambda seed: (scores[seed], seed))
    return ranked[(len(ranked) - 1) // 2]


def train(config: Path, training_dir: Path, metrics_dir: Path, seeds: Sequence[int]) -> int:
    for seed in seeds:
        out = training_dir / f"seed{seed}"
        if finished(out, metrics_dir):
            print(f"seed {seed}: {out} is trained, not trained again", file=sys.stderr)
            continue
        cmd = [sys.executable, str(SCRIPTS / "timed.py"), f"train_{training_dir.name}_seed{seed}", "--meta",
               str(metrics_dir / "run_meta.json"), "--config", str(config), "--set", f"seed={seed}", "--",
               sys.executable, "-m", "spacy", "train", str(config), "--output", str(out), "--system.seed", str(seed)]
        code = subprocess.call(cmd)
        if code:
            return code
        atomic_write_text(out / FINISHED, json.dumps({"seed": seed, "config": str(config)}) + "\n")
    return 0


def parse_split(text: str) -> Tuple[str, Tuple[str, str]]:
    """NAME=GOLD.spacy:CONVENTION (the convention defaults to NAME)."""
    name, sep, rest = text.partition("=")
    if not sep or not name or not rest:
        raise argparse.ArgumentTypeError(f"--split {text!r}: expected NAME=GOLD.spacy[:CONVENTION]")
    gold, sep, convention = rest.rpartition(":")
    if not sep or not gold.endswith(".spacy"):
        gold, convention = rest, name
    return name, (gold, convention or name)


def evaluate_model(best: Path, out: Path, splits: Dict[str, Tuple[str, str]], gold_cues: bool = False) -> int:
    """One model on each split into ``out/on_SPLIT.{txt,json}`` (with ``gold_cues``: on the
    gold cues into ``out/on_SPLIT_goldcues.{txt,json}``); outputs newer than the model's
    ``meta.json`` are kept."""
    suffix = GOLD_CUES_SUFFIX if gold_cues else ""
    for split, (gold, convention) in splits.items():
        scores = out / f"on_{split}{suffix}.json"
        if scores.is_file() and scores.stat().st_mtime >= (best / "meta.json").stat().st_mtime:
            continue
        out.mkdir(parents=True, exist_ok=True)
        code = subprocess.call([sys.executable, str(SCRIPTS / "evaluate_model.py"), str(best), gold,
                                str(out / f"on_{split}{suffix}.txt"), str(scores), "--tag-punct", "--convention",
                                convention, *(["--gold-cues"] if gold_cues else [])])
        if code:
            return code
    return 0


def evaluate(training_dir: Path, metrics_dir: Path, splits: Dict[str, Tuple[str, str]],
             gold_cues: bool = False) -> int:
    seeds = seed_dirs(training_dir, metrics_dir)
    if not seeds:
        print(f"error: no trained seed under {training_dir} (seedN/model-best)", file=sys.stderr)
        return 1
    for seed, best in seeds.items():
        code = evaluate_model(best, metrics_dir / f"seed{seed}", splits, gold_cues)
        if code:
            return code
    return 0


def evaluated_dev_score(metrics_dir: Path, seed: int, dev_split: str, metrics: Sequence[str]) -> float:
    """The mean of ``metrics`` in a seed's scores on a dev split evaluated like the test
    splits (``METRICS_DIR/seedN/on_DEV.json``): for a model whose config's decoding changed
    after training, or whose selection weighs several scores (negation and speculation)."""
    path = metrics_dir / f"seed{seed}" / f"on_{dev_split}.json"
    if not path.is_file():
        raise ValueError(f"seed {seed} is not evaluated on {dev_split} ({path}; run `evaluate` with that --split first)")
    scores = json.loads(path.read_text(encoding="utf-8"))["scores"]
    missing = [m for m in metrics if m not in scores]
    if missing:
        raise ValueError(f"{path} has no {', '.join(missing)}")
    return sum(float(scores[m]) for m in metrics) / len(metrics)


def select(training_dir: Path, metrics_dir: Path, splits: Dict[str, Tuple[str, str]],
           dev_split: Optional[str] = None, dev_metrics: Sequence[str] = (DEV_SCORE,)) -> int:
    seeds = seed_dirs(training_dir, metrics_dir)
    try:
        if dev_split is None:
            scores = {seed: dev_score(best, dev_metrics) for seed, best in seeds.items()}
        else:
            scores = {seed: evaluated_dev_score(metrics_dir, seed, dev_split, dev_metrics) for seed in seeds}
        chosen = median_seed(scores)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    source = metrics_dir / f"seed{chosen}"
    missing = [split for split in splits if not (source / f"on_{split}.json").is_file()]
    if missing:
        print(f"error: seed {chosen} is not evaluated on {', '.join(missing)} (run `evaluate` first)", file=sys.stderr)
        return 1
    for split in splits:
        for suffix in (".json", ".txt"):
            shutil.copyfile(source / f"on_{split}{suffix}", metrics_dir / f"on_{split}{suffix}")
    target = training_dir / "model-best"
    partial = training_dir / "model-best.partial"
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(seeds[chosen], partial)
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    rule = (f"median dev score (the mean of performance.{', performance.'.join(dev_metrics)} of model-best)"
            if dev_split is None else
            f"median dev score (the mean of {', '.join(dev_metrics)} of model-best on {dev_split})")
    record = {"seed": chosen, "rule": rule, "dev": {str(seed): score for seed, score in scores.items()}}
    atomic_write_text(metrics_dir / "selected.json", json.dumps(record, indent=2) + "\n")
    print(f"selected seed {chosen} (dev score {scores[chosen]:.4f}) of {sorted(scores)}", file=sys.stderr)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("train", "evaluate", "select"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="train: the seeds")
    parser.add_argument("--config", type=Path, default=Path("configs/general_l3_distil.cfg"))
    parser.add_argument("--training-dir", type=Path, default=Path("training/general"))
    parser.add_argument("--metrics-dir", type=Path, default=Path("metrics/general"))
    parser.add_argument("--split", type=parse_split, action="append", default=[],
                        help="evaluate/select: NAME=GOLD.spacy[:CONVENTION] (repeatable; default: the English test splits)")
    parser.add_argument("--model", type=Path, default=None,
                        help="evaluate: this one model (not a seed) into METRICS_DIR/on_SPLIT.*")
    parser.add_argument("--dev-split", default=None,
                        help="select: rank the seeds by their scores on this --split (a dev split, evaluated "
                             "with the test splits) instead of the score spaCy recorded in training")
    parser.add_argument("--dev-metric", nargs="+", default=[DEV_SCORE],
                        help="select: the scores whose mean ranks the seeds (on --dev-split, else in the "
                             "checkpoint's recorded dev scores)")
    parser.add_argument("--gold-cues", action="store_true",
                        help=f"evaluate: resolve the scopes of the gold cues (negation and speculation) into "
                             f"on_SPLIT{GOLD_CUES_SUFFIX}.{{txt,json}} instead of end to end")
    args = parser.parse_args(argv)
    if args.gold_cues and args.action != "evaluate":
        parser.error("--gold-cues goes with evaluate")
    splits = dict(args.split) or TEST_SPLITS
    if args.model is not None:
        if args.action != "evaluate":
            parser.error("--model goes with evaluate")
        if not (args.model / "meta.json").is_file():
            print(f"error: {args.model} is not a trained model (no meta.json)", file=sys.stderr)
            return 1
        return evaluate_model(args.model, args.metrics_dir, splits, args.gold_cues)
    if args.action == "train":
        return train(args.config, args.training_dir, args.metrics_dir, args.seeds)
    if args.action == "evaluate":
        return evaluate(args.training_dir, args.metrics_dir, splits, args.gold_cues)
    if args.dev_split is not None and args.dev_split not in splits:
        parser.error(f"--dev-split {args.dev_split} is not one of the --split names")
    return select(args.training_dir, args.metrics_dir, splits, args.dev_split, args.dev_metric)


if __name__ == "__main__":
    sys.exit(main())

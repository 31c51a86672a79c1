"""Train and evaluate the systems of Sineva et al. (2021) over corpora and seeds, one
training at a time (the ``systems`` workflow).

python scripts/systems_run.py [--corpora cdsco bioscope sfu] [--systems bilstm_tagger
    negbert dp_direct dp_nested punct_baseline] [--seeds 0 1 2] [--out-dir training/systems]
    [--backbone all-mpnet-base-v2 | --data affixal] [--max-steps N] [--learn-rate X] [--dry-run]

Run from the project folder (the configs name ``corpus/...``). Each run folder
``OUT/{corpus}/{system}/seed{N}`` gets ``train_config`` (the config and overrides of its
training), ``model-best``, ``train.log``, ``train_seconds`` and
the evaluations of ``scripts/evaluate_model.py``: ``dev`` and ``test`` in domain,
``cross_{corpus}`` on each other corpus's test split and, for the systems with a separate
scope component, ``gold_cues_test`` (scope resolution on gold cues); BioScope and SFU are
scored with ``--tag-punct`` wherever they are the test corpus. The punctuation baseline
(gold cues, deterministic) runs once per corpus (``seed0``). The gold test files the
report's significance tests align to are written to ``OUT/gold/{corpus}_test.txt``.

Resumable: a run whose ``test.json`` exists is not trained again (only its missing
evaluations run); a run folder without it is removed and redone. ``model-last`` is
removed after training (the evaluations use ``model-best``). ``--dry-run`` prints the
commands and changes nothing.

``--backbone NAME`` trains the systems on another transformer backbone (every
``spacy-negation.TransformerModel.v1`` block of the system's config gets ``name = NAME``,
as command-line overrides) into ``OUT/{corpus}/{system}@{label}/seed{N}``, the label
``mpnet`` for ``all-mpnet-base-v2`` (installed by ``spacy project run install-mpnet``).
``--max-steps N`` and ``--learn-rate X`` (with ``--backbone``) train N steps, and from the
initial learning rate X, instead of the system's (the schedule's decay follows the steps;
its warm-up does not).

``--data LABEL`` trains the systems on another train split of the corpus
(``systems_grid.DATA_VARIANTS``: ``affixal``, CD-SCO train with affixal cue copies, built by
``spacy project run augment-cdsco``) into ``OUT/{corpus}/{system}@{label}/seed{N}``; dev and
test stay the corpus's own.
"""
import argparse
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from spacy_negation.errors import Errors
from spacy_negation.util import atomic_write_text

from systems_grid import (BACKBONE_LABELS, CORPORA, DATA_VARIANTS, PUNCT, RUN_FAILED, SYSTEMS, TRAIN_CONFIG,
                          UNTAGGED, backbone_overrides, evaluations, gold_file, run_dir, split_file, train_config)

SCRIPTS = Path(__file__).resolve().parent


def _show(command: Sequence[str], log: Optional[Path] = None) -> str:
    text = shlex.join(["python" if c == sys.executable else c for c in command])
    return text + (f" > {log} 2>&1" if log is not None else "")


def _call(command: List[str], log: Path, folder: Path) -> None:
    """Run a command with its output in a log file; a failure is a coded error."""
    print(f"$ {_show(command, log)}", file=sys.stderr, flush=True)
    with log.open("w", encoding="utf-8") as out:
        code = subprocess.call(command, stdout=out, stderr=subprocess.STDOUT)
    if code != 0:
        raise RuntimeError(RUN_FAILED.format(command=_show(command), code=code, log=log, run=folder))


def write_gold(corpus: str, out: Path) -> None:
    """The gold *SEM file of a corpus's test split, as the runs' system files are written
    (BioScope and SFU tagged for the punctuation rule)."""
    write_starsem_gold(Path(split_file(corpus, "test")), out, tag=corpus in UNTAGGED)


def write_starsem_gold(source: Path, out: Path, tag: bool) -> None:
    """A gold .spacy file as a *SEM file, with ``tag`` its untagged tokens tagged for the
    punctuation rule as ``evaluate_model.py --tag-punct`` tags them."""
    from spacy_negation import register_extensions
    from spacy_negation.analysis.evaluation import tag_punct
    from spacy_negation.corpora.docbin import read_docbin
    from spacy_negation.corpora.starsem_docs import write_starsem_docs

    register_extensions()
    docs = read_docbin(source)
    if tag:
        for doc in docs:
            tag_punct(doc)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_starsem_docs(docs, out)


def system_dir(system: str, backbone: Optional[str], data: Optional[str] = None) -> str:
    """The folder name of a system's runs: ``SYSTEM``, or ``SYSTEM@LABEL`` on another backbone
    or another train split (``data``, a label of DATA_VARIANTS)."""
    if system == PUNCT:
        return system
    if data is not None:
        return f"{system}@{data}"
    if backbone is None:
        return system
    return f"{system}@{BACKBONE_LABELS[backbone]}"


def training_overrides(corpus: str, system: str, backbone: Optional[str] = None,
                       max_steps: Optional[int] = None, learn_rate: Optional[float] = None,
                       settings: Optional[Dict[str, str]] = None) -> Tuple[str, List[str]]:
    """The config of a system's training and its overrides (besides ``--output`` and
    ``--system.seed``): the system's (``train_config``), every transformer on the backbone,
    and ``--training.max_steps``, the schedule's ``initial_rate`` and any other setting
    (``settings``: config path -> value, e.g. a component's ``lr_scale``) replaced by
    max_steps, learn_rate and settings."""
    config, overrides = train_config(corpus, system)
    replaced: Dict[str, Any] = {"--training.max_steps": max_steps,
                                "--training.optimizer.learn_rate.initial_rate": learn_rate}
    replaced.update({f"--{key}": value for key, value in (settings or {}).items()})
    for key, value in replaced.items():
        if value is None:
            continue
        if key in overrides:
            at = overrides.index(key)
            overrides = overrides[:at] + overrides[at + 2:]
        overrides = overrides + [key, str(value)]
    if backbone is not None:
        overrides = overrides + backbone_overrides(config, backbone, SCRIPTS.parent)
    return config, overrides


def run_commands(corpus: str, system: str, seed: int, folder: Path, done: bool,
                 training: Optional[Tuple[str, List[str]]] = None) -> List[Tuple[str, List[str]]]:
    """The commands of one run that are still to do, in order, each with the name of its
    log file: the training (its config and overrides: ``training``, by default the
    system's) unless the run is finished, then each evaluation whose JSON is missing (the
    in-domain test last of the in-domain ones: it marks the run finished)."""
    commands: List[Tuple[str, List[str]]] = []
    if system != PUNCT and not done:
        config, overrides = training or training_overrides(corpus, system)
        commands.append(("train", [sys.executable, "-m", "spacy", "train", config, "--output", str(folder),
                                   "--system.seed", str(seed), *overrides]))
    for name, test, gold_cues in evaluations(corpus, system):
        if done and (folder / f"{name}.json").exists():
            continue
        flags = (["--tag-punct"] if test in UNTAGGED else []) + (["--gold-cues"] if gold_cues else [])
        outputs = [str(folder / f"{name}.txt"), str(folder / f"{name}.json")]
        gold = split_file(test, "dev" if name == "dev" else "test")
        if system == PUNCT:
            command = [sys.executable, str(SCRIPTS / "punct_baseline.py"), gold, *outputs, *flags]
        else:
            command = [sys.executable, str(SCRIPTS / "evaluate_model.py"), str(folder / "model-best"),
                       gold, *outputs, *flags]
        commands.append((f"eval_{name}", command))
    return commands


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", nargs="+", choices=CORPORA, default=None,
                        help="default: every corpus (with --data, those the variant has)")
    parser.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--out-dir", type=Path, default=Path("training/systems"))
    parser.add_argument("--backbone", default=None, choices=sorted(BACKBONE_LABELS),
                        help="train on this backbone (its runs are the systems SYSTEM@LABEL of the report)")
    parser.add_argument("--data", default=None, choices=sorted(DATA_VARIANTS),
                        help="train on this variant of the corpus's train split (its runs are the systems "
                             "SYSTEM@LABEL of the report)")
    parser.add_argument("--max-steps", type=int, default=None,
                        help="train this many steps instead of the system's (its learning-rate schedule follows)")
    parser.add_argument("--learn-rate", type=float, default=None,
                        help="the schedule's initial learning rate instead of the system's")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                        help="another setting of the system's config, e.g. "
                             "components.negation_scope_negbert.lr_scale=0.2; repeatable")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, change nothing")
    args = parser.parse_args(argv)
    settings: Dict[str, str] = {}
    for spec in args.set:
        key, sep, value = spec.partition("=")
        if not sep or not key or not value or key.startswith("-") or key in settings:
            parser.error(f"--set takes SECTION.KEY=VALUE, each key once, got {spec!r}")
        settings[key] = value
    if args.max_steps is not None and args.max_steps < 1:
        parser.error(f"--max-steps must be at least 1, got {args.max_steps}")
    if args.learn_rate is not None and not args.learn_rate > 0:
        parser.error(f"--learn-rate must be positive, got {args.learn_rate}")
    if args.corpora is None:
        args.corpora = list(CORPORA) if args.data is None else [c for c in CORPORA if c in DATA_VARIANTS[args.data]]
    if args.backbone is not None and args.data is not None:
        parser.error("--backbone and --data are one variant each: give one of them")
    if args.data is not None:
        unknown = [c for c in args.corpora if c not in DATA_VARIANTS[args.data]]
        if unknown:
            parser.error(f"--data {args.data} has no train split for {', '.join(unknown)} "
                         f"(it has: {', '.join(DATA_VARIANTS[args.data])})")
        if "paths.train" in settings:
            parser.error("--data sets paths.train itself")
    if (args.max_steps is not None or args.learn_rate is not None or settings) and (
            args.backbone is None and args.data is None):
        # the grid's own folders hold the systems' runs at their own settings: a run with
        # others there would be pooled with them in the report
        parser.error("--max-steps, --learn-rate and --set need --backbone or --data (the grid's runs keep "
                     "each system's settings)")
    needed = sorted({split_file(c, s) for c in args.corpora for s in ("train", "dev", "test")}
                    | {split_file(c, "test") for c in CORPORA if set(args.systems) - {PUNCT}}
                    | {DATA_VARIANTS[args.data][c] for c in args.corpora if args.data is not None})
    if not args.dry_run:
        missing = [path for path in needed if not Path(path).exists()]
        if missing:
            for path in missing:
                print(f"error: {Errors.E130.format(path=path)} (run the convert commands first"
                      + (", and augment-cdsco" if args.data is not None else "") + ")",
                      file=sys.stderr)
            return 1
    for corpus in args.corpora:
        gold = gold_file(args.out_dir / "gold", corpus)
        if args.dry_run:
            print(f"# write {gold} from {split_file(corpus, 'test')}")
        else:
            write_gold(corpus, gold)
    try:
        for corpus in args.corpora:
            for system in args.systems:
                for seed in ([0] if system == PUNCT else args.seeds):
                    if args.data is not None and system == PUNCT:
                        continue  # gold cues, no training: the data variant changes nothing
                    folder = run_dir(args.out_dir, corpus, system_dir(system, args.backbone, args.data), seed)
                    done = (folder / "test.json").exists()
                    run_settings = dict(settings)
                    if args.data is not None:
                        run_settings["paths.train"] = DATA_VARIANTS[args.data][corpus]
                    training = None if system == PUNCT else training_overrides(
                        corpus, system, args.backbone, args.max_steps, args.learn_rate, run_settings)
                    commands = run_commands(corpus, system, seed, folder, done, training)
                    if args.dry_run:
                        state = "finished" if done else ("unfinished: redone" if folder.exists() else "new")
                        print(f"# {folder} ({state})")
                        for name, command in commands:
                            print(_show(command, folder / f"{name}.log"))
                        continue
                    if not commands:
                        continue
                    if not done:
                        if folder.exists():
                            print(f"removing the unfinished run {folder}", file=sys.stderr)
                            shutil.rmtree(folder)
                        folder.mkdir(parents=True)
                        if training is not None:
                            atomic_write_text(folder / TRAIN_CONFIG, shlex.join([training[0]] + training[1]) + "\n")
                    for name, command in commands:
                        start = time.perf_counter()
                        _call(command, folder / f"{name}.log", folder)
                        if name == "train":
                            atomic_write_text(folder / "train_seconds", f"{time.perf_counter() - start:.0f}\n")
                            shutil.rmtree(folder / "model-last", ignore_errors=True)
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

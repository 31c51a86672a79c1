"""``challenge``: the template challenge set for negation resolvers, built from the
templates of the pragmatic negation probe (Gubelmann & Handschuh 2022)."""
import argparse
from pathlib import Path

from ._args import check_outputs, output_file
from .probe import add_run_options, beside_files, model_names


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``challenge``."""
    p.add_argument("models", nargs="+", metavar="MODEL", help="a negation pipeline (name or path)")
    add_run_options(p, Path("challenge.json"), 20, ".md")
    p.add_argument("--host", default=None,
                   help="run MODEL as the 'negation' component of this host pipeline (a name, "
                        "a path or blank:LANG)")
    p.add_argument("--convention", default="cdsco", choices=("cdsco", "bioscope", "sfu"),
                   help="the convention the models annotate in (a model with components per "
                        "convention is run in it) and are checked in: in bioscope and sfu no affixal "
                        "cue is expected, and in sfu the whole word 'doesn't' counts as the cue n't")
    p.add_argument("--gold", type=output_file, default=None,
                   help="also write the challenge set with its expected negations as a *SEM file")


def run(args: argparse.Namespace) -> int:
    """Run a negation pipeline on every filled sentence of the probe's experiments 1-3
    (annotated with the expected cue and scope in the CD-SCO convention) and report the
    error rate per template family and the invariance failures (swapping names, professions
    and gender must not change the prediction). MODEL is a negation pipeline (with
    negation_cue and negation_scope) or a pipeline with the 'negation' component, as a
    package name or a path."""
    from ..challenge import build_items, evaluate_pipeline, load_pipeline
    from ..challenge_output import write_gold, write_results
    from ..probe.report import load_results

    names = model_names(args.models, args.name)
    check_outputs(beside_files(args.output, [".md"]))  # the default output is not parsed
    data = load_results(args.output)
    items = build_items(sample=args.sample, seed=args.seed)
    if args.gold is not None:
        write_gold(items, args.gold)
        print(f"wrote {args.gold}")
    for model, name in zip(args.models, names):
        nlp = load_pipeline(model, host=args.host, convention=args.convention)
        result = evaluate_pipeline(nlp, items, convention=args.convention)
        data["models"][name] = result
        total = result["overall"]
        print(f"{name}: {total['errors']}/{total['n']} items with errors; "
              f"invariance failures {result['invariance_failures']}")
    for f in write_results(args.output, data):
        print(f"wrote {f}")
    return 0

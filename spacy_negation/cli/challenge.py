"""``challenge``: the template challenge set for negation resolvers, built from the
templates of the pragmatic negation probe (Gubelmann & Handschuh 2022)."""
import argparse
from pathlib import Path


def add_parser(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser(
        "challenge", help="error rates of a negation pipeline on the template challenge set",
        description="Run a negation pipeline on every filled sentence of the probe's "
                    "experiments 1-3 (annotated with the expected cue and scope in the "
                    "CD-SCO convention) and report the error rate per template family and "
                    "the invariance failures (swapping names, professions and gender must "
                    "not change the prediction). MODEL is a negation pipeline (with "
                    "negation_cue and negation_scope) or a pipeline with the 'negation' "
                    "component, as a package name or a path.")
    p.add_argument("models", nargs="+", metavar="MODEL", help="a negation pipeline (name or path)")
    p.add_argument("--name", action="append", default=None,
                   help="the model's name in the results (once per MODEL; default: as given)")
    p.add_argument("--output", type=Path, default=Path("results/challenge.json"),
                   help="the results JSON (default results/challenge.json); .md beside it")
    p.add_argument("--sample", type=int, default=20,
                   help="name-profession pairs per gender (default 20)")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    p.add_argument("--host", default=None,
                   help="run MODEL as the 'negation' component of this host pipeline (a name, "
                        "a path or blank:LANG)")
    p.add_argument("--gold", type=Path, default=None,
                   help="also write the challenge set with its expected negations as a *SEM file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..challenge import build_items, evaluate_pipeline, load_pipeline, write_gold, write_results
    from ..errors import Errors
    from ..probe.report import load_results

    names = args.name or list(args.models)
    if len(names) != len(args.models):
        raise ValueError(Errors.E609.format(n_names=len(names), n_models=len(args.models)))
    data = load_results(args.output)
    items = build_items(sample=args.sample, seed=args.seed)
    if args.gold is not None:
        write_gold(items, args.gold)
        print(f"wrote {args.gold}")
    for model, name in zip(args.models, names):
        nlp = load_pipeline(model, host=args.host)
        result = evaluate_pipeline(nlp, items)
        data["models"][name] = result
        total = result["overall"]
        print(f"{name}: {total['errors']}/{total['n']} items with errors; "
              f"invariance failures {result['invariance_failures']}")
    for f in write_results(args.output, data):
        print(f"wrote {f}")
    return 0

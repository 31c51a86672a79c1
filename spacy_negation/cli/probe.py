"""``probe``: the pragmatic masked-LM negation probe of Gubelmann & Handschuh (2022) on
local Hugging Face masked language model folders."""
import argparse
import os
from pathlib import Path
from typing import Any, List, Optional


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``probe``."""
    p.add_argument("models", nargs="+", type=Path, metavar="MODEL_DIR",
                   help="a Hugging Face masked-LM folder (BERT [MASK] or RoBERTa <mask>)")
    add_run_options(p, Path("probe.json"), 100, ".md and .png")
    p.add_argument("--ranks", type=int, nargs="+", default=[0, 50, 100, 200],
                   help="probability ranks of the ACT tokens (default 0 50 100 200)")
    p.add_argument("--batch-size", type=int, default=64, help="sentences per forward pass")
    p.add_argument("--tied-head", action="store_true",
                   help="the folder is an encoder without masked-LM head weights: build the "
                        "head from the tied word embeddings (warns NEG-W600)")
    p.add_argument("--no-plot", action="store_true", help="do not write the PNG")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_run_options(p: argparse.ArgumentParser, output: Path, sample: int, beside: str) -> None:
    """The options ``probe`` and ``challenge`` share: --name, --output, --sample, --seed."""
    p.add_argument("--name", action="append", default=None,
                   help="the model's name in the results (once per model; default: as given)")
    p.add_argument("--output", type=Path, default=output,
                   help=f"the results JSON (default {output}); {beside} beside it")
    p.add_argument("--sample", type=int, default=sample,
                   help=f"name-profession pairs per gender (default {sample}; the paper used 9.1k)")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")


def model_names(models: List[Any], names: Optional[List[str]]) -> List[str]:
    """The --name values, one per model (default: the model as given, a folder's name)."""
    from ..errors import Errors

    names = names or [Path(m).name if isinstance(m, Path) else str(m) for m in models]
    if len(names) != len(models):
        raise ValueError(Errors.E609.format(n_names=len(names), n_models=len(models)))
    return names


def run(args: argparse.Namespace) -> int:
    """Fill the 43 templates of Gubelmann & Handschuh (2022) with names, professions and ACT
    tokens of the given probability ranks chosen by each model, let the model fill the final
    mask and report %-ACT-repetition by experiment, template feature and rank. Local files
    only. The results of each model are added to OUTPUT (JSON), with a Markdown report and
    plots beside it."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from ..probe import mlm as mlm_mod
    from ..probe.report import load_results, write_results
    from ..probe.run import run_probe

    names = model_names(args.models, args.name)
    data = load_results(args.output)  # fail on a bad results file before the long run
    for path, name in zip(args.models, names):
        model = mlm_mod.load(path, tied_head=args.tied_head, batch_size=args.batch_size)
        result = run_probe(model, sample=args.sample, ranks=args.ranks, seed=args.seed,
                           show_progress=not args.no_progress, name=name)
        data["models"][name] = result
        e1 = result["experiment_1"]["by_negation"]
        print(f"{name}: %-ACT-repetition exp. 1 negated {e1.get('not', {}).get('act_repetition')} "
              f"positive {e1.get('none', {}).get('act_repetition')}; "
              f"exp. 2 {result['experiment_2']['overall']['act_repetition']}; "
              f"exp. 3 {result['experiment_3']['overall']['act_repetition']}")
    for f in write_results(args.output, data, plot=not args.no_plot):
        print(f"wrote {f}")
    return 0

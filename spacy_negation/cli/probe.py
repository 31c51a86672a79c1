"""``probe``: the pragmatic masked-LM negation probe of Gubelmann & Handschuh (2022) on
local Hugging Face masked language model folders."""
import argparse
import os
from pathlib import Path
from typing import Any, List, Optional

from ..limits import MAX_BATCH_SIZE, MAX_RANK
from ._args import bounded_int, check_outputs, output_file, seed_arg


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``probe``."""
    p.add_argument("models", nargs="+", type=Path, metavar="MODEL_DIR",
                   help="a Hugging Face masked-LM folder (BERT [MASK] or RoBERTa <mask>)")
    add_run_options(p, Path("probe.json"), 100, ".md and .png")
    p.add_argument("--ranks", type=bounded_int("--ranks", 0, MAX_RANK), nargs="+",
                   default=[0, 50, 100, 200],
                   help=f"probability ranks of the ACT tokens (default 0 50 100 200; 0 to {MAX_RANK})")
    p.add_argument("--batch-size", type=bounded_int("--batch-size", 1, MAX_BATCH_SIZE), default=64,
                   help=f"sentences per forward pass (default 64, at most {MAX_BATCH_SIZE})")
    p.add_argument("--tied-head", action="store_true",
                   help="the folder is an encoder without masked-LM head weights: build the "
                        "head from the tied word embeddings (warns NEG-W600)")
    p.add_argument("--no-plot", action="store_true", help="do not write the PNG")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_run_options(p: argparse.ArgumentParser, output: Path, sample: int, beside: str) -> None:
    """The options ``probe`` and ``challenge`` share: --name, --output, --sample, --seed.
    --sample is at most the number of name-profession pairs of a gender (the larger one;
    a gender with fewer pairs gives all of them, W601)."""
    from ..probe.run import n_pairs

    most = max(n_pairs(gender) for gender in ("m", "f"))
    p.add_argument("--name", action="append", default=None,
                   help="the model's name in the results (once per model; default: as given)")
    p.add_argument("--output", type=output_file, default=output,
                   help=f"the results JSON (default {output}); {beside} beside it")
    p.add_argument("--sample", type=bounded_int("--sample", 1, most), default=sample,
                   help=f"name-profession pairs per gender (default {sample}, at most {most}: all "
                        "pairs; the paper used 9.1k)")
    p.add_argument("--seed", type=seed_arg, default=0, help="sampling seed (default 0; 0 to 2**32-1)")


def beside_files(output: Path, suffixes: List[str]) -> List[Path]:
    """The output and the files written beside it (same stem), to check before the run."""
    return [output] + [output.with_suffix(suffix) for suffix in suffixes]


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
    check_outputs(beside_files(args.output, [".md"] + ([] if args.no_plot else [".png"])))
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

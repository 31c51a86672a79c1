"""How long ``spacy train`` spends initializing a pipeline from a training config.

spaCy's ``initialize`` reads the training corpus many times (every component, several
passes each). With ``spacy-negation.DistilledCorpus.v1`` as the reader, a teacher used to
run on every example of every read; now it runs only on the examples a component learns
from. This times ``spacy.training.initialize.init_nlp`` on a config (the corpus reading,
the components' labels and lexicons, the model shapes), as ``spacy train`` runs it before
the first step, and prints the seconds.

python bench/bench_init.py configs/general_l3_distil.cfg [--set paths.teacher=PATH ...]
"""
import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Dict, Optional, Sequence

from spacy.training.initialize import init_nlp
from spacy.util import load_config


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path, help="a training config")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override (a string value), e.g. paths.teacher=training/general_teacher/model-best")
    args = parser.parse_args(argv)
    overrides: Dict[str, str] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--set {item!r}: expected KEY=VALUE")
        overrides[key] = value
    start = time.perf_counter()
    config = load_config(args.config, overrides=overrides, interpolate=False)
    init_nlp(config)
    seconds = time.perf_counter() - start
    print(f"{args.config}: initialized in {seconds:.1f} s ({platform.machine()}, Python {platform.python_version()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

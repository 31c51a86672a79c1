"""How long ``spacy train`` spends initializing a pipeline from a training config.

spaCy's ``initialize`` reads the training corpus many times (every component, several
passes each). With ``spacy-negation.DistilledCorpus.v1`` as the reader, a teacher used to
run on every example of every read; now it runs only on the examples a component learns
from. This times ``spacy.training.initialize.init_nlp`` on a config (the corpus reading,
the components' labels and lexicons, the model shapes), as ``spacy train`` runs it before
the first step, and prints the seconds.

python bench/bench_init.py configs/general_l3_distil.cfg [--paths.teacher PATH ...]

(Overrides as ``spacy train`` takes them.)
"""
import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

from spacy.cli._util import parse_config_overrides
from spacy.training.initialize import init_nlp
from spacy.util import load_config


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path, help="a training config")
    args, extra = parser.parse_known_args(argv)
    overrides = parse_config_overrides(list(extra))
    start = time.perf_counter()
    config = load_config(args.config, overrides=overrides, interpolate=False)
    init_nlp(config)
    seconds = time.perf_counter() - start
    print(f"{args.config}: initialized in {seconds:.1f} s ({platform.machine()}, Python {platform.python_version()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

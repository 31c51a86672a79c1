"""Write the per-corpus training configs (configs/bioscope.cfg, configs/sfu.cfg): the
transformer config (configs/negation_trf.cfg) with each corpus's paths and settings, so
that the project's training commands pass only the seed.

python scripts/corpus_configs.py [--check]

spaCy configs have no include: each file is the base config written out in full with the
settings below applied. Re-run after changing configs/negation_trf.cfg or a setting here;
with --check nothing is written and the exit code is 1 if a committed config differs from
what this script writes.
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from spacy.util import load_config

from spacy_negation.util import atomic_write_text

REPO = Path(__file__).resolve().parents[1]
BASE = "configs/negation_trf.cfg"

#: The settings that are not the base config's, per corpus: BioScope abstracts and the SFU
#: Review Corpus (the document-level splits of data/splits/) with the sentences without
#: negation sampled once at one per sentence with a negation (``unnegated_ratio``), the
#: step counts and the transformer's learning rate chosen for them (results/README.md);
#: BioScope also with hard negatives and its decoding settings, chosen on its dev split.
SETTINGS: Dict[str, Dict[str, Any]] = {
    "bioscope": {
        "paths.train": "corpus/bioscope/train.spacy",
        "paths.dev": "corpus/bioscope/dev.spacy",
        "training.max_steps": 3200,
        "training.eval_frequency": 400,
        "corpora.train.unnegated_ratio": 1.0,
        "corpora.train.hard_negatives": 0.1,
        "training.optimizer.learn_rate.initial_rate": 0.00005,
        "components.negation_cue.min_word_precision": 0.1,
        "components.negation_scope.contiguous": True,
        "components.negation_scope.scope_bias": 0.5,
        "initialize.components": {"negation_cue": {"words_corpus": "corpus/bioscope/train.spacy"}},
    },
    "sfu": {
        "paths.train": "corpus/sfu/train.spacy",
        "paths.dev": "corpus/sfu/dev.spacy",
        "training.max_steps": 1600,
        "training.eval_frequency": 400,
        "corpora.train.unnegated_ratio": 1.0,
        "training.optimizer.learn_rate.initial_rate": 0.00005,
    },
}


def render(corpus: str, root: Path = REPO) -> str:
    """The config file of a corpus: a header naming the settings, then the base config
    with them applied.

    corpus (str): a key of SETTINGS.
    root (Path): the project folder.
    RETURNS (str): the file's text.
    """
    settings = SETTINGS[corpus]
    config = load_config(root / BASE, overrides=settings, interpolate=False)
    header = [f"# {corpus}: {BASE} with these settings (written by scripts/corpus_configs.py; edit",
              "# the base config or the script's SETTINGS and re-run it):"]
    header += [f"#   {key} = {json.dumps(value)}" for key, value in settings.items()]
    header += ["#", f"#   python -m spacy train configs/{corpus}.cfg --output training/{corpus} "
               "--system.seed 0", ""]
    return "\n".join(header) + "\n" + config.to_str()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a committed config is not current")
    parser.add_argument("--root", type=Path, default=REPO, help="the project folder")
    args = parser.parse_args(argv)
    stale = []
    for corpus in SETTINGS:
        path = args.root / "configs" / f"{corpus}.cfg"
        text = render(corpus, args.root)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            atomic_write_text(path, text)
            print(f"wrote {path}", file=sys.stderr)
    for path in stale:
        print(f"not current (run scripts/corpus_configs.py): {path}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())

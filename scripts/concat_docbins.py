"""Concatenate .spacy files (keeping user data), optionally marking each input's docs with
an annotation convention (spacy_negation.negation.convention):

    concat_docbins.py A.spacy B.spacy --output C.spacy
    concat_docbins.py cdsco=corpus/train.spacy bioscope=corpus/bioscope/train.spacy --output D.spacy

With --contracted RATIO, the output also holds contracted copies ("does not" -> "doesn't",
spacy_negation.corpora.contractions) of that share of the docs whose cue "not" follows an
auxiliary, after all the inputs.
"""
import argparse
from pathlib import Path
from typing import Optional, Tuple

from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_negation.corpora.contractions import contracted_copies
from spacy_negation.negation import set_convention
from spacy_negation.util import atomic_write_bytes


def parse_input(text: str) -> Tuple[Optional[str], Path]:
    """CONVENTION=PATH or PATH (a path containing '=' needs the CONVENTION= prefix)."""
    name, sep, path = text.partition("=")
    return (name, Path(path)) if sep and not Path(text).exists() else (None, Path(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", nargs="+", help="PATH or CONVENTION=PATH")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--contracted", type=float, default=0.0, metavar="RATIO",
                        help="add contracted copies of this share of the docs with an 'AUX not' cue")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the choice of --contracted")
    args = parser.parse_args()
    merged = DocBin(store_user_data=True)
    for text in args.inputs:
        convention, path = parse_input(text)
        part = DocBin(store_user_data=True).from_bytes(path.read_bytes())
        if convention is not None:
            vocab = Vocab()
            docs = list(part.get_docs(vocab))
            for doc in docs:
                set_convention(doc, convention)
            part = DocBin(store_user_data=True, docs=docs)
        merged.merge(part)
    if args.contracted:
        vocab = Vocab()
        copies = list(contracted_copies(merged.get_docs(vocab), args.contracted, seed=args.seed))
        merged.merge(DocBin(store_user_data=True, docs=copies))
        print(f"added {len(copies)} contracted copies")
    atomic_write_bytes(args.output, merged.to_bytes())


if __name__ == "__main__":
    main()

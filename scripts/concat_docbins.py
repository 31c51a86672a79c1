"""Concatenate .spacy files (keeping user data), optionally marking each input's docs with
an annotation convention (spacy_negation.negation.convention):

    concat_docbins.py A.spacy B.spacy --output C.spacy
    concat_docbins.py cdsco=corpus/train.spacy bioscope=corpus/bioscope/train.spacy --output D.spacy

With --contracted RATIO, the output also holds contracted copies ("does not" -> "doesn't",
spacy_negation.corpora.contractions) of that share of the docs whose cue "not" follows an
auxiliary, after all the inputs. With --affixal COPIES, it also holds, last, COPIES copies of
each input sentence with an affixal cue (the sentence alone), the cue word replaced by another word with a negative affix
(spacy_negation.corpora.cue_augment; --affixal-exclude-from: never a word that is an affixal cue
in these files, e.g. the held-out splits):

    concat_docbins.py corpus/train.spacy --output corpus/cdsco_affixal/train.spacy --affixal 2 \
        --affixal-exclude-from corpus/dev.spacy corpus/test.spacy
"""
import argparse
from pathlib import Path
from typing import Optional, Tuple

from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_negation.corpora.contractions import contracted_copies
from spacy_negation.corpora.cue_augment import (LEXICON_PATH, affixal_copies, affixal_cue_words,
                                                load_affixal_lexicon)
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
    parser.add_argument("--seed", type=int, default=0, help="the seed of the choice of --contracted and --affixal")
    parser.add_argument("--affixal", type=int, default=0, metavar="COPIES",
                        help="add this many copies of each sentence with an affixal cue, the cue word replaced")
    parser.add_argument("--affixal-lexicon", type=Path, default=LEXICON_PATH,
                        help="the replacements (WORD, AFFIX, CLASS per tab-separated row)")
    parser.add_argument("--affixal-exclude-from", type=Path, nargs="+", default=[], metavar="SPACY",
                        help="never use a word that is (or extends) an affixal cue of these files")
    args = parser.parse_args()
    lexicon = load_affixal_lexicon(args.affixal_lexicon) if args.affixal else []
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
    affixal = []  # copied from the inputs alone, written after the contracted copies
    if args.affixal:
        vocab = Vocab()
        exclude = affixal_cue_words(doc for path in args.affixal_exclude_from
                                    for doc in DocBin(store_user_data=True).from_disk(path).get_docs(vocab))
        affixal = list(affixal_copies(merged.get_docs(vocab), lexicon, copies=args.affixal, seed=args.seed,
                                      exclude=exclude))
    if args.contracted:
        vocab = Vocab()
        copies = list(contracted_copies(merged.get_docs(vocab), args.contracted, seed=args.seed))
        merged.merge(DocBin(store_user_data=True, docs=copies))
        print(f"added {len(copies)} contracted copies")
    if args.affixal:
        merged.merge(DocBin(store_user_data=True, docs=affixal))
        print(f"added {len(affixal)} affixal copies ({len(exclude)} held-out affixal words left out)")
    atomic_write_bytes(args.output, merged.to_bytes())


if __name__ == "__main__":
    main()

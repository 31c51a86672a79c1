"""Lexical cue substitution: the input .spacy files (concatenated, keeping user
data, each input's docs optionally marked with an annotation convention as
scripts/concat_docbins.py marks them) followed by copies of their sentences whose lexical
negation cue is replaced by another ``train`` word of the same class of the negation lexicon
(spacy_negation.corpora.cue_substitute; held-out words are never written):

    substitute_cues.py bioscope=corpus/general/bioscope_train.spacy \\
        --output corpus/lexsub/bioscope_train.spacy --copies 1 --max-per-word 150

Run it per corpus (so that each cue component's word lexicon, its ``words_corpus``, counts
the new words) and concatenate the outputs with concat_docbins.py into the general
training file. Prints the copies per replacement word (each copy's user data says what it
replaced: spacy_negation.corpora.cue_substitute.SUBSTITUTION_KEY).
"""
import argparse
from collections import Counter
from pathlib import Path
from typing import List, Optional, Tuple

from spacy.tokens import Doc, DocBin

from spacy_negation.corpora.cue_lexicon import LEXICON_PATH, load_negation_lexicon
from spacy_negation.corpora.cue_substitute import SUBSTITUTION_KEY, substituted_copies
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.negation import set_convention
from spacy_negation.util import atomic_write_bytes, blank_nlp


def parse_input(text: str) -> Tuple[Optional[str], Path]:
    """CONVENTION=PATH or PATH (a path containing '=' needs the CONVENTION= prefix)."""
    name, sep, path = text.partition("=")
    return (name, Path(path)) if sep and not Path(text).exists() else (None, Path(text))


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", help="PATH or CONVENTION=PATH")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--copies", type=int, default=1, help="copies per sentence with a replaceable cue")
    parser.add_argument("--ratio", type=float, default=1.0,
                        help="the share of those sentences that get copies (0 < RATIO <= 1)")
    parser.add_argument("--max-per-word", type=int, default=None, metavar="N",
                        help="write each lexicon word into at most N copies (default: no limit)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the random choices")
    parser.add_argument("--lexicon", type=Path, default=LEXICON_PATH,
                        help="the negation lexicon (WORD, CLASS, SPLIT, LEMMA per tab-separated row)")
    parser.add_argument("--exclude", nargs="+", default=[], metavar="WORDS",
                        help="cue words never written besides the held-out ones (a multiword cue in quotes)")
    args = parser.parse_args(argv)
    lexicon = load_negation_lexicon(args.lexicon)
    vocab = blank_nlp("en").vocab
    docs: List[Doc] = []
    for text in args.inputs:
        convention, path = parse_input(text)
        part = read_docbin(path, vocab=vocab)
        if convention is not None:
            for doc in part:
                set_convention(doc, convention)
        docs.extend(part)
    copies = list(substituted_copies(docs, lexicon, copies=args.copies, ratio=args.ratio, seed=args.seed,
                                     exclude=args.exclude, max_per_word=args.max_per_word))
    merged = DocBin(store_user_data=True, docs=docs)
    merged.merge(DocBin(store_user_data=True, docs=copies))
    atomic_write_bytes(args.output, merged.to_bytes())
    written = Counter(copy.user_data[SUBSTITUTION_KEY]["new"] for copy in copies)
    print(f"wrote {args.output}: {len(docs)} docs and {len(copies)} copies with a substituted cue")
    print(", ".join(f"{word} {n}" for word, n in written.most_common()))


if __name__ == "__main__":
    main()

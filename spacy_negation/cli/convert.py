"""``convert``: a corpus file to a spaCy ``.spacy`` (DocBin) file with gold negations."""
import argparse
import sys
from pathlib import Path

from ..errors import Errors
from ..formats import FORMATS, get_reader
from ..util import atomic_write_bytes


def add_parser(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("convert", help="convert a corpus file to a .spacy file",
                       description="Convert a negation corpus file to a .spacy (DocBin) file.")
    p.add_argument("input", type=Path, help="the corpus file (or folder, for the XML corpora)")
    p.add_argument("output", type=Path, help="the .spacy file to write")
    p.add_argument("--format", default="starsem", choices=sorted(FORMATS),
                   help="input format (default: starsem, the *SEM 2012 CD-SCO CoNLL format)")
    p.add_argument("--n-sents", type=int, default=10,
                   help="sentences per doc; docs never cross document ids; 0 = whole documents "
                        "(default: 10)")
    p.add_argument("--lang", default="en",
                   help="language of the vocab (default: en; use es for neges2018/neges2019)")
    p.add_argument("--split", default=None, metavar="CORPUS:SPLIT",
                   help="keep only the documents of a committed document-level split, e.g. "
                        "bioscope_abstracts:train or sfu:test (ids in data/splits/)")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import spacy
    from spacy.tokens import DocBin
    from tqdm import tqdm

    if not args.input.exists():
        raise FileNotFoundError(Errors.E130.format(path=args.input))
    reader = get_reader(args.format)
    nlp = spacy.blank(args.lang)
    docs = reader(args.input, nlp.vocab, args.n_sents)
    if args.split is not None:
        from ..readers import select_split

        name, _, split = args.split.partition(":")
        docs = select_split(docs, name, split, args.input)
    db = DocBin(store_user_data=True)
    n_tokens = 0
    for doc in tqdm(docs, desc=f"convert {args.input.name}", unit="doc", disable=args.quiet,
                    file=sys.stderr, mininterval=0.5):
        db.add(doc)
        n_tokens += len(doc)
    atomic_write_bytes(args.output, db.to_bytes())
    if not args.quiet:
        print(f"wrote {len(db)} docs ({n_tokens} tokens) to {args.output}", file=sys.stderr)
    return 0


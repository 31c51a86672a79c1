"""``convert``: a corpus file to a spaCy ``.spacy`` (DocBin) file with gold negations."""
import argparse
import sys
import warnings
from typing import List

from ..errors import code_tag
from ..corpora.registry import format_names, get_reader
from ..limits import MAX_N_SENTS
from ..util import ON_ERROR, atomic_write_bytes, blank_nlp, check_input_file, check_output
from ._args import bounded_int, input_path, output_file


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``convert``."""
    p.add_argument("input", type=input_path,
                   help="the corpus file (or folder, for the XML corpora); for bioscope_clinical the "
                        "folder holding BioScope's masked clinical_records_anon.xml and the CMC 2007 "
                        "challenge files with the report texts (2007ChallengeTrainData.xml, "
                        "2007ChallengeTestDataNoCodes.xml), e.g. ../shared/corpora/bioscope-clinical")
    p.add_argument("output", type=output_file, help="the .spacy file to write")
    p.add_argument("--format", default="starsem", choices=format_names(),
                   help="input format (default: starsem, the *SEM 2012 CD-SCO CoNLL format)")
    p.add_argument("--n-sents", type=bounded_int("--n-sents", 0, MAX_N_SENTS), default=10,
                   help="sentences per doc; docs never cross document ids; 0 = whole documents "
                        f"(default: 10, at most {MAX_N_SENTS})")
    p.add_argument("--lang", default="en",
                   help="language of the vocab (default: en; use es for neges2018/neges2019)")
    p.add_argument("--split", default=None, metavar="CORPUS:SPLIT",
                   help="keep only the documents of a committed document-level split, e.g. "
                        "bioscope_abstracts:train, bioscope_clinical:dev or sfu:test (ids shipped "
                        "with the package)")
    p.add_argument("--on-error", default="raise", choices=ON_ERROR,
                   help="raise (default): stop at the first bad sentence; skip: skip each bad "
                        "sentence (and repair a cell that differs from its token only in letter "
                        "case), report each with file, line and reason, and count them")
    p.add_argument("--quiet", action="store_true", help="no progress output")


def run(args: argparse.Namespace) -> int:
    """Convert a negation corpus file to a .spacy (DocBin) file."""
    from spacy.tokens import DocBin
    from tqdm import tqdm

    check_input_file(args.input, folder_ok=True)
    check_output(args.output, [args.input])
    reader = get_reader(args.format)
    nlp = blank_nlp(args.lang)
    db = DocBin(store_user_data=True)
    n_tokens = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            docs = reader(args.input, nlp.vocab, args.n_sents, on_error=args.on_error)
            if args.split is not None:
                from ..corpora.splits import select_split

                name, _, split = args.split.partition(":")
                docs = select_split(docs, name, split, args.input)
            for doc in tqdm(docs, desc=f"convert {args.input.name}", unit="doc", disable=args.quiet,
                            file=sys.stderr, mininterval=0.5):
                db.add(doc)
                n_tokens += len(doc)
        finally:
            _report(caught, args.on_error == "skip")
    atomic_write_bytes(args.output, db.to_bytes())
    if not args.quiet:
        print(f"wrote {len(db)} docs ({n_tokens} tokens) to {args.output}", file=sys.stderr)
    return 0



def _report(caught: List[warnings.WarningMessage], lenient: bool) -> None:
    """Print the reader's warnings (every skipped or repaired sentence with file, line and
    reason) and, when reading leniently, their count."""
    messages = [str(w.message) for w in caught]
    for message in messages:
        print(f"warning: {message}", file=sys.stderr)
    if lenient:
        n_skipped = sum(m.startswith(code_tag("W402")) for m in messages)
        n_repaired = sum(m.startswith(code_tag("W403")) for m in messages)
        print(f"--on-error skip: {n_skipped} sentence(s) skipped, {n_repaired} cell(s) repaired",
              file=sys.stderr)

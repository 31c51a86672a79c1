"""``export``: a ``.spacy`` file's docs and their negations to a *SEM CoNLL file."""
import argparse
import sys

from ..errors import Errors, NegationFormatError
from ._args import input_file, output_file


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``export``."""
    p.add_argument("input", type=input_file, help="the .spacy (DocBin) file")
    p.add_argument("output", type=output_file, help="the *SEM CoNLL file to write")
    p.add_argument("--lang", default="en", help="language of the vocab (default: en)")


def run(args: argparse.Namespace) -> int:
    """Write the docs of a .spacy file, with the negations they carry (gold or predicted),
    in the *SEM 2012 CoNLL format."""
    from ..corpora.starsem_docs import write_starsem_docs
    from ..corpora.docbin import read_docbin
    from ..util import check_output

    check_output(args.output, [args.input])
    docs = read_docbin(args.input, lang=args.lang)
    try:
        n = write_starsem_docs(docs, args.output)
    except NegationFormatError:
        raise
    except ValueError as err:  # a doc the format cannot hold (E120, E121)
        raise NegationFormatError(Errors.E127.format(path=args.input, reason=err), args.input) from err
    print(f"wrote {n} sentences to {args.output}", file=sys.stderr)
    return 0

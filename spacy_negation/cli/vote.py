"""``vote``: majority vote over system *SEM files of the same sentences, written as one *SEM file.

Combines trained systems (the seeds of one system, or several systems) through their
output files (:mod:`spacy_negation.corpora.vote`): an instance is kept when at least
``--min-votes`` files (default: a strict majority) have exactly its cue; its scope and
event are the cells a strict majority of those files' instances have. The output has the
first file's token columns and can be scored with ``evaluate`` and compared with
``compare``. No spaCy import.
"""
import argparse
import sys

from ..limits import MAX_VOTES
from ._args import bounded_int, input_file, output_file

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``vote``."""
    p.add_argument("systems", type=input_file, nargs="+", metavar="system",
                   help="two or more system *SEM files of the same sentences")
    p.add_argument("--output", "-o", type=output_file, required=True,
                   help="the voted *SEM file (written atomically; not one of the inputs)")
    p.add_argument("--min-votes", type=bounded_int("--min-votes", 1, MAX_VOTES), default=None,
                   metavar="N", help="files that must have an instance's cue (default: a strict "
                                     "majority; at most the number of files)")


def run(args: argparse.Namespace) -> int:
    """Majority vote over system *SEM files of the same sentences: the instances whose
    cue at least --min-votes files have (default: a strict majority), each with the scope
    and event cells a strict majority of those files give it; written to --output with
    the first file's token columns."""
    from ..corpora.starsem import read_starsem, write_starsem
    from ..corpora.vote import resolve_min_votes, vote_sentences
    from ..util import check_output

    votes = resolve_min_votes(len(args.systems), args.min_votes)  # before reading any file
    check_output(args.output, args.systems)
    files = [read_starsem(path) for path in args.systems]
    voted = vote_sentences(files, votes, names=[str(p) for p in args.systems])
    write_starsem(voted, args.output)
    kept = sum(len(s.instances) for s in voted)
    print(f"{args.output}: {len(voted)} sentences, {kept} instances kept by at least {votes} of "
          f"{len(args.systems)} files", file=sys.stderr)
    return 0

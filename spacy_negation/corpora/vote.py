"""Majority vote over system *SEM files of the same sentences: a combination of trained
systems (seeds of one system, or several systems) that needs only their output files.

Per sentence, a negation instance is kept when at least ``min_votes`` of the files have an
instance with exactly its cue cells (token positions and strings; by default a strict
majority of the files). Its scope and event cells are those that a strict majority of
those files' instances with that cue have. Majority voting over the outputs of several
systems is the simplest ensemble (Dietterich 2000); it is not a system of Sineva et al.
(2021). No spaCy import.
"""
from typing import Dict, List, Optional, Sequence, Tuple

from ..errors import Errors, NegationFormatError
from .blocks import Cell, Instance
from .starsem import Sentence

__all__ = ["default_min_votes", "resolve_min_votes", "vote_instances", "vote_sentences"]

CueKey = Tuple[Cell, ...]


def default_min_votes(n_files: int) -> int:
    """A strict majority of ``n_files``: ``n_files // 2 + 1``."""
    return n_files // 2 + 1


def resolve_min_votes(n_files: int, min_votes: Optional[int] = None) -> int:
    """The number of files that must have a cue, checked.

    n_files (int): the number of files voting.
    min_votes (Optional[int]): the number asked for (default: a strict majority).
    RETURNS (int): the number.
    RAISES (ValueError): fewer than two files (E749) or min_votes out of range (E750).
    """
    if n_files < 2:
        raise ValueError(Errors.E749.format(n=n_files))
    votes = default_min_votes(n_files) if min_votes is None else min_votes
    if not 1 <= votes <= n_files:
        raise ValueError(Errors.E750.format(value=votes, n=n_files))
    return votes


def _majority(instances: Sequence[Instance], role: str) -> List[Cell]:
    votes: Dict[Cell, int] = {}
    for inst in instances:
        for cell in dict.fromkeys(getattr(inst, role)):
            votes[cell] = votes.get(cell, 0) + 1
    return sorted(cell for cell, n in votes.items() if 2 * n > len(instances))


def vote_instances(per_file: Sequence[Sequence[Instance]], min_votes: int) -> List[Instance]:
    """The voted instances of one sentence.

    per_file (Sequence[Sequence[Instance]]): each file's instances of the sentence.
    min_votes (int): the number of files that must have an instance's cue (1 to the
        number of files).
    RETURNS (List[Instance]): the kept instances, ordered by their cue cells; each file
        counts once per cue (the first of its instances with that cue).
    """
    by_cue: Dict[CueKey, List[Instance]] = {}
    for instances in per_file:
        seen = set()
        for inst in instances:
            key = tuple(sorted(inst.cue))
            if key not in seen:
                seen.add(key)
                by_cue.setdefault(key, []).append(inst)
    return [Instance(cue=list(key), scope=_majority(found, "scope"), event=_majority(found, "event"))
            for key, found in sorted(by_cue.items()) if len(found) >= min_votes]


def _check_aligned(first: Sequence[Sentence], other: Sequence[Sentence], names: Tuple[str, str]) -> None:
    if len(other) != len(first):
        raise NegationFormatError(Errors.E751.format(path=names[1], n=len(other), first=names[0],
                                                     n_first=len(first)), names[1])
    for k, (a, b) in enumerate(zip(first, other)):
        keys_a = [(r.doc_id, r.sent_no, r.tok_no, r.form) for r in a.rows]
        keys_b = [(r.doc_id, r.sent_no, r.tok_no, r.form) for r in b.rows]
        if keys_a != keys_b:
            j = next((j for j, (x, y) in enumerate(zip(keys_a, keys_b)) if x != y), min(len(keys_a), len(keys_b)))
            line = b.line + j if b.line else 0
            raise NegationFormatError(Errors.E752.format(path=names[1], line=line, k=k, first=names[0],
                                                         line_first=a.line + j if a.line else 0),
                                      names[1], line)


def vote_sentences(files: Sequence[Sequence[Sentence]], min_votes: Optional[int] = None,
                   names: Optional[Sequence[str]] = None) -> List[Sentence]:
    """The majority vote of system files, sentence by sentence, on the first file's token
    rows.

    files (Sequence[Sequence[Sentence]]): two or more files' sentences, the same sentences
        in the same order (columns 0-3 equal).
    min_votes (Optional[int]): files that must have a cue (default: a strict majority).
    names (Optional[Sequence[str]]): the files' names for error messages.
    RETURNS (List[Sentence]): the voted sentences.
    RAISES (ValueError): fewer than two files (E749) or min_votes out of range (E750).
    RAISES (NegationFormatError): the files' sentences differ (E751, E752).
    """
    votes = resolve_min_votes(len(files), min_votes)
    labels = list(names) if names is not None else [f"file {i + 1}" for i in range(len(files))]
    for i in range(1, len(files)):
        _check_aligned(files[0], files[i], (labels[0], labels[i]))
    return [Sentence(rows=sent.rows, instances=vote_instances([f[k].instances for f in files], votes),
                     line=sent.line) for k, sent in enumerate(files[0])]


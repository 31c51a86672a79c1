"""Sentence records: one sentence of any corpus before it becomes part of a ``Doc``.

Every reader of :mod:`spacy_negation.corpora` turns its format into
:class:`SentenceRecord` objects; :func:`spacy_negation.corpora.docs.build_doc` is the one
place where records become docs. Nothing here imports spaCy.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Protocol, Sequence, Set, Tuple, TypeVar

from ..errors import Errors, NegationFormatError
from ..util import is_writable_form

PartTuple = Tuple[int, int, int]  # (token position in the sentence, start, end)
NegationRecord = Dict[str, List[PartTuple]]  # role -> parts, positions sentence-relative


@dataclass
class SentenceRecord:
    """One sentence of a corpus, before it becomes part of a ``Doc``.

    doc_id (str): the document id (no whitespace).
    sent_id (str): the sentence id or number within the document (no whitespace).
    words (List[str]): the tokens (non-empty, no whitespace).
    spaces (List[bool]): whether each token is followed by a space.
    negations (List[NegationRecord]): per instance, role -> parts ``(position, start,
        end)`` with token positions relative to the sentence; every instance has a cue.
    speculations (Optional[List[NegationRecord]]): the speculation instances in the same
        shape (roles 'cue' and 'scope'); None when the corpus does not annotate speculation
        (the doc then gets no speculation span group).
    lemmas (Optional[List[str]]): the lemmas, if the corpus has them.
    tags (Optional[List[str]]): the POS tags, if the corpus has them.
    parse (Optional[List[str]]): the *SEM parse fragments, if the corpus has them.
    line (int): the 1-based line where the sentence starts in its file (0: unknown).
    """

    doc_id: str
    sent_id: str
    words: List[str]
    spaces: List[bool]
    negations: List[NegationRecord] = field(default_factory=list)
    speculations: Optional[List[NegationRecord]] = None
    lemmas: Optional[List[str]] = None
    tags: Optional[List[str]] = None
    parse: Optional[List[str]] = None
    line: int = 0


class HasDocId(Protocol):
    """Anything with a document id (a record or a *SEM sentence)."""

    @property
    def doc_id(self) -> str: ...


S = TypeVar("S", bound=HasDocId)


def check_n_sents(n_sents: Any) -> int:
    """Validate a number of sentences per doc.

    n_sents (int): 0 (whole documents) or a positive number.
    RETURNS (int): n_sents.
    RAISES (ValueError): anything else (E116).
    """
    if isinstance(n_sents, bool) or not isinstance(n_sents, int) or n_sents < 0:
        raise ValueError(Errors.E116.format(value=n_sents))
    return n_sents


def group_sentences(sentences: Iterable[S], n_sents: int) -> Iterator[List[S]]:
    """Group consecutive sentences of one document id into chunks of at most n_sents.

    sentences (Iterable[S]): the sentences (records or *SEM sentences).
    n_sents (int): the maximum number of sentences per group (0: one group per document id).
    YIELDS (List[S]): the groups.
    """
    check_n_sents(n_sents)
    group: List[S] = []
    for sent in sentences:
        if group and (sent.doc_id != group[-1].doc_id or (n_sents and len(group) >= n_sents)):
            yield group
            group = []
        group.append(sent)
    if group:
        yield group


def whole_parts(words: Sequence[str], positions: Iterable[int]) -> List[PartTuple]:
    """Whole-token parts of the given token positions.

    words (Sequence[str]): the sentence's tokens.
    positions (Iterable[int]): token positions, in order.
    RETURNS (List[PartTuple]): ``(position, 0, len(word))`` per position.
    """
    return [(i, 0, len(words[i])) for i in positions]


def chars_to_parts(token_spans: Sequence[Tuple[int, int]], chars: Set[int]) -> List[PartTuple]:
    """Project a set of character offsets onto tokens: a token whose characters are all in
    the set is a whole part; a token with some characters in it gets a partial part with
    the longest run of covered characters (parts hold one range per token).

    token_spans (Sequence[Tuple[int, int]]): per token, its start and end offset.
    chars (Set[int]): the character offsets.
    RETURNS (List[PartTuple]): ``(token position, start, end)`` with offsets inside the token.
    """
    parts: List[PartTuple] = []
    if not chars:
        return parts
    for pos, (start, end) in enumerate(token_spans):
        covered = [c - start for c in range(start, end) if c in chars]
        if not covered:
            continue
        runs: List[Tuple[int, int]] = []
        for c in covered:
            if runs and runs[-1][1] == c:
                runs[-1] = (runs[-1][0], c + 1)
            else:
                runs.append((c, c + 1))
        best = max(runs, key=lambda r: (r[1] - r[0], -r[0]))
        parts.append((pos, best[0], best[1]))
    return parts


def check_token(path: Path, line: int, form: str) -> str:
    """A token form, stripped of surrounding whitespace; empty forms and forms with inner
    whitespace or a control character are errors (the *SEM format has one token per line).

    path (Path): the file, for messages.
    line (int): the line, for messages.
    form (str): the form.
    RETURNS (str): the stripped form.
    RAISES (NegationFormatError): the form cannot be written back (E405).
    """
    stripped = form.strip()
    if not is_writable_form(stripped):
        raise NegationFormatError(Errors.E405.format(path=path, line=line, form=form), path, line)
    return stripped

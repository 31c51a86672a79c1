"""Readers of the FairEval tool's own input formats (Ortmann 2022); pairing files, counting
them and writing span files are in :mod:`.files`.

Two formats, detected per sentence from its first line (sentences are separated by blank
lines; a file may mix formats from sentence to sentence):

* **span files**: ``label TAB begin TAB end TAB tok, tok, ...`` with 1-based token
  indices; an empty token list means every token from begin to end (at most
  MAX_RANGE_TOKENS of them: a longer range is an error, not a set of that many tokens);
  ``end < begin`` is swapped as the reference does. A sentence without spans holds a dummy span such as
  ``EMPTY TAB 999 TAB 999 TAB 999``; the labels ``NONE`` and ``EMPTY`` are excluded by
  default.
* **CoNLL2000**: ``form POS tag`` per token (spaces; tabs are accepted too), BIO tags,
  stacked annotations separated by ``|``; ``O``, ``_`` or an empty tag is outside.

Deliberate differences from the reference reader:

* a label is everything after ``B-``/``I-`` (the reference cuts it at the next ``-``);
* ``I-X`` without an open ``X`` span at its level starts a new span (the reference crashes
  after ``O`` and extends a span of another label otherwise);
* punctuation (``ignore_punct``, CoNLL only) also covers the PTB tags ``-LRB-``, ``-RRB-``,
  ````` ``, ``''``, ``$`` and ``#``, and a span's end moves back over *all* trailing
  punctuation (the reference leaves the end on the first of two trailing punctuation
  tokens). ``punct_compat=True`` reproduces the reference's tag list and end handling;
* a span line without valid token indices is an error, never a list-typed span;
* every malformed line is a coded error with file and line (the reference prints a message
  and silently drops the sentence); out-of-range token indices are errors too (the
  reference drops them silently);
* ``NONE``/``EMPTY`` are always excluded unless ``exclude`` says otherwise; two files given
  on the command line are paired whatever their names, folders by file name, and differing
  sentence counts are an error (the reference zips and silently truncates).
"""
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

from ...errors import Errors, NegationFormatError
from .spans import FSpan
from ..textfile import iter_lines

SPANS_FORMAT = "spans"
CONLL_FORMAT = "conll2000"
#: Labels excluded by default (the reference's dummy labels).
DEFAULT_EXCLUDE: Tuple[str, ...] = ("NONE", "EMPTY")
#: The most tokens a span line with an empty token list (begin to end) may cover: far
#: more than any sentence, few enough that the span's token set stays small.
MAX_RANGE_TOKENS = 100_000
#: The dummy line written for a sentence without spans.
EMPTY_LINE = "EMPTY\t999\t999\t999"
#: The reference tool's punctuation POS tags (STTS, UPOS, custom, PTB subset).
REFERENCE_PUNCT_TAGS = frozenset({"$.", "$,", "$(", "PUNCT", "PUNKT", "KOMMA", "COMMA",
                                  "KLAMMER", ".", ",", ":", "(", ")", '"', "\u2018", "\u201c",
                                  "\u2019", "\u201d"})
#: Our punctuation tags: the reference's plus the PTB tags it lacks (Q-F8).
PUNCT_TAGS = REFERENCE_PUNCT_TAGS | {"-LRB-", "-RRB-", "``", "''", "$", "#"}
_OUTSIDE = ("O", "_", "")


@dataclass
class SpanSentence:
    """One sentence of a FairEval input file.

    spans (List[FSpan]): the spans in reading order (the order breaks ties).
    line (int): the 1-based line of the sentence's first line.
    format (str): "spans" or "conll2000".
    n_tokens (Optional[int]): the number of tokens (CoNLL2000 only).
    """

    spans: List[FSpan]
    line: int
    format: str
    n_tokens: Optional[int] = None


class _Open:
    __slots__ = ("label", "begin", "end", "tokens")

    def __init__(self, label: str, begin: int, end: int, tokens: Set[int]) -> None:
        self.label: str = label
        self.begin: Optional[int] = begin
        self.end: Optional[int] = end
        self.tokens = tokens


def read_faireval_file(path: Union[str, Path], *, ignore_punct: bool = False,
                       punct_compat: bool = False, labels: Optional[Iterable[str]] = None,
                       exclude: Iterable[str] = DEFAULT_EXCLUDE) -> List[SpanSentence]:
    """Read a FairEval span file or CoNLL2000 file (format detected per sentence).

    path (Union[str, Path]): the file (UTF-8).
    ignore_punct (bool): remove punctuation tokens from CoNLL2000 spans.
    punct_compat (bool): remove punctuation exactly as the reference tool does (its tag
        list; a span ending in two punctuation tokens keeps its end on the first, Q-F8).
    labels (Optional[Iterable[str]]): keep only these labels (None = all).
    exclude (Iterable[str]): drop these labels (default: NONE, EMPTY).
    RETURNS (List[SpanSentence]): the sentences in file order.
    RAISES (NegationFormatError): malformed input, with file and line.
    """
    return list(iter_faireval_file(path, ignore_punct=ignore_punct, punct_compat=punct_compat,
                                   labels=labels, exclude=exclude))


def iter_faireval_file(path: Union[str, Path], *, ignore_punct: bool = False,
                       punct_compat: bool = False, labels: Optional[Iterable[str]] = None,
                       exclude: Iterable[str] = DEFAULT_EXCLUDE,
                       seen: Optional[Set[str]] = None) -> Iterator[SpanSentence]:
    """The sentences of a FairEval input file, streamed (see :func:`read_faireval_file`;
    a byte order mark is skipped, CR-only line endings are an error).

    seen (Optional[Set[str]]): if given, every label read (before filtering) is added.
    YIELDS (SpanSentence): each sentence in file order.
    """
    return parse_faireval_lines(iter_lines(path), path=str(path), ignore_punct=ignore_punct,
                                punct_compat=punct_compat, labels=labels, exclude=exclude,
                                seen=seen)


def parse_faireval_lines(lines: Iterable[str], *, path: str = "<string>",
                         ignore_punct: bool = False, punct_compat: bool = False,
                         labels: Optional[Iterable[str]] = None,
                         exclude: Iterable[str] = DEFAULT_EXCLUDE,
                         seen: Optional[Set[str]] = None,
                         first_line: int = 1) -> Iterator[SpanSentence]:
    """Parse lines (without line terminators) of a FairEval input file.

    lines (Iterable[str]): the lines; blank lines separate sentences.
    path (str): the name used in error messages.
    ignore_punct (bool): see :func:`read_faireval_file`.
    punct_compat (bool): see :func:`read_faireval_file`.
    labels (Optional[Iterable[str]]): keep only these labels (None = all).
    exclude (Iterable[str]): drop these labels.
    seen (Optional[Set[str]]): if given, every label read (before filtering) is added.
    first_line (int): the line number of the first line.
    YIELDS (SpanSentence): each sentence.
    """
    keep = None if labels is None else set(labels)
    drop = set(exclude)
    block: List[Tuple[int, str]] = []

    def finish() -> SpanSentence:
        sent = _parse_block(block, path, ignore_punct, punct_compat)
        if seen is not None:
            seen.update(s.label for s in sent.spans)
        sent.spans = [s for s in sent.spans
                      if s.label not in drop and (keep is None or s.label in keep)]
        return sent

    for line_no, line in enumerate(lines, first_line):
        line = line.rstrip("\r\n")
        if not line.strip():
            if block:
                yield finish()
                block = []
            continue
        block.append((line_no, line))
    if block:
        yield finish()


def parse_span_block(text: str, line: int, path: str, seen: Set[str],
                     labels: Optional[Iterable[str]], exclude: Iterable[str]
                     ) -> Optional[SpanSentence]:
    """A block of span lines only, the common case, read without the per-line format
    detection of :func:`parse_faireval_lines` (same result).

    text (str): the block, lines joined by newlines.
    line (int): the number of its first line.
    path (str): the file name for messages.
    seen (Set[str]): every label read (before filtering) is added.
    labels (Optional[Iterable[str]]): keep only these labels (None = all).
    exclude (Iterable[str]): drop these labels.
    RETURNS (Optional[SpanSentence]): the sentence, or None when a line is not a span line
        with a label (blank, CoNLL2000, malformed): the general parser then reads it.
    """
    spans: List[FSpan] = []
    for k, text_line in enumerate(text.split("\n")):
        fields = text_line.split("\t")
        if len(fields) != 4 or not fields[0].strip():
            return None
        spans.append(_span_line(fields, path, line + k))
    seen.update(s.label for s in spans)
    drop = set(exclude)
    keep = None if labels is None else set(labels)
    return SpanSentence([s for s in spans if s.label not in drop and (keep is None or s.label in keep)],
                        line, SPANS_FORMAT)


def _line_format(line: str) -> Tuple[Optional[str], List[str]]:
    fields = line.split("\t")
    if len(fields) == 4:
        return SPANS_FORMAT, fields
    words = line.split()
    if len(words) == 3:
        return CONLL_FORMAT, words
    if len(words) == 2 and line.endswith(" "):  # "form POS " = empty tag (outside)
        return CONLL_FORMAT, words + [""]
    return None, fields


def _parse_block(block: List[Tuple[int, str]], path: str, ignore_punct: bool,
                 punct_compat: bool) -> SpanSentence:
    first_line = block[0][0]
    rows: List[Tuple[int, List[str]]] = []
    fmt: Optional[str] = None
    for line_no, line in block:
        found, fields = _line_format(line)
        if found is None:
            raise NegationFormatError(Errors.E257.format(path=path, line=line_no, content=line),
                                      path, line_no)
        if fmt is None:
            fmt = found
        elif found != fmt:
            raise NegationFormatError(Errors.E258.format(path=path, line=line_no, found=found,
                                                         fmt=fmt, first_line=first_line),
                                      path, line_no)
        rows.append((line_no, fields))
    if fmt == SPANS_FORMAT:
        return SpanSentence([_span_line(f, path, n) for n, f in rows], first_line, SPANS_FORMAT)
    opened = _conll_spans(rows, path)
    if ignore_punct:
        tags = REFERENCE_PUNCT_TAGS if punct_compat else PUNCT_TAGS
        punct = [t for t, (_, f) in enumerate(rows, 1) if f[1] in tags]
        opened = (_remove_punct_compat if punct_compat else _remove_punct)(opened, punct)
    spans = [FSpan(o.label, o.begin, o.end, frozenset(o.tokens))  # type: ignore[arg-type]
             for o in opened]
    return SpanSentence(spans, first_line, CONLL_FORMAT, len(rows))


def _index(value: str, what: str, path: str, line: int) -> int:
    v = value.strip()
    if not (v.isdigit() and v.isascii()) or int(v) < 1:
        raise NegationFormatError(Errors.E260.format(path=path, line=line, what=what, value=value),
                                  path, line)
    return int(v)


_TOKEN_LIST = re.compile(r" *[0-9]+ *(?:, *[0-9]+ *)*")


def _span_line(fields: List[str], path: str, line: int) -> FSpan:
    """A span line; the common well-formed case is checked in bulk, anything else by
    :func:`_checked_span_line` (which names the problem)."""
    label = fields[0].strip()
    b, e, toks = fields[1], fields[2], fields[3]
    if label and b.isdigit() and e.isdigit() and b.isascii() and e.isascii() \
            and _TOKEN_LIST.fullmatch(toks):
        begin, end = int(b), int(e)
        if end < begin:
            begin, end = end, begin
        tokens = frozenset(map(int, toks.split(",")))
        if begin >= 1 and begin <= min(tokens) and max(tokens) <= end:
            return FSpan.checked(label, begin, end, tokens)
    return _checked_span_line(fields, path, line)


def _checked_span_line(fields: List[str], path: str, line: int) -> FSpan:
    label = fields[0].strip()
    if not label:
        raise NegationFormatError(Errors.E259.format(path=path, line=line), path, line)
    begin = _index(fields[1], "begin", path, line)
    end = _index(fields[2], "end", path, line)
    if end < begin:
        begin, end = end, begin
    tokens: Set[int] = set()
    for item in fields[3].split(","):
        item = item.strip()
        if not item:
            continue
        try:
            tok = int(item)
        except ValueError:
            raise NegationFormatError(Errors.E261.format(path=path, line=line, value=item),
                                      path, line) from None
        if not begin <= tok <= end:
            raise NegationFormatError(Errors.E262.format(path=path, line=line, value=tok,
                                                         begin=begin, end=end), path, line)
        tokens.add(tok)
    if not tokens:
        if end - begin + 1 > MAX_RANGE_TOKENS:
            raise NegationFormatError(Errors.E956.format(path=path, line=line, begin=begin, end=end,
                                                         limit=MAX_RANGE_TOKENS), path, line)
        tokens = set(range(begin, end + 1))
    return FSpan(label, begin, end, frozenset(tokens))


def _conll_spans(rows: List[Tuple[int, List[str]]], path: str) -> List[_Open]:
    """BIO tags to spans with the reference's stack discipline (same output order)."""
    spans: List[_Open] = []
    stack: List[_Open] = []
    for t, (line, fields) in enumerate(rows, 1):
        tag = fields[2].strip()
        if tag in _OUTSIDE:
            spans.extend(stack)
            stack = []
            continue
        parsed: List[Tuple[str, str]] = []
        for ann in tag.split("|"):
            if len(ann) < 3 or ann[:2] not in ("B-", "I-"):
                raise NegationFormatError(Errors.E263.format(path=path, line=line, tag=tag),
                                          path, line)
            parsed.append((ann[0], ann[2:]))
        while len(stack) > len(parsed):
            spans.append(stack.pop())
        for i, (kind, label) in enumerate(parsed):
            if kind == "I" and i < len(stack) and stack[i].label == label:
                stack[i].end = t
                stack[i].tokens.add(t)
                continue
            # B-, or I- without an open span of its label at this level: a new span.
            if i == 0 and stack:
                spans.extend(stack)
                stack = []
            else:
                while len(stack) > i:
                    spans.append(stack.pop())
            stack.append(_Open(label, t, t, {t}))
    spans.extend(stack)
    return spans


def _remove_punct(spans: List[_Open], punct: Sequence[int]) -> List[_Open]:
    """Drop punctuation tokens; begin/end move inward over all of them; empty spans go."""
    if not punct:
        return spans
    p = set(punct)
    out = []
    for s in spans:
        s.tokens = {t for t in s.tokens if t not in p}
        if not s.tokens:
            continue
        s.begin, s.end = min(s.tokens), max(s.tokens)
        out.append(s)
    return out


def _remove_punct_compat(spans: List[_Open], punct: Sequence[int]) -> List[_Open]:
    """The reference's procedure: punctuation tokens left to right, begin/end moved by one
    token each time (so an end on two trailing punctuation tokens stays on the first)."""
    for p in punct:
        for s in spans:
            s.tokens.discard(p)
            if s.begin == p:
                s.begin = p + 1 if s.end is not None and s.end > p else None
            if s.end == p:
                s.end = p - 1 if s.begin is not None and s.begin <= p - 1 else None
        spans = [s for s in spans if s.begin is not None and s.end is not None and s.tokens]
    return spans


# --- writing ----------------------------------------------------------------------------

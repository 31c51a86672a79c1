"""The *SEM 2012 / CD-SCO CoNLL format at the level of lines and cells.

This module knows nothing about spaCy: it parses a file into :class:`Sentence` records
(token rows plus negation instances as ``(token position, cell string)`` lists) and writes
them back. :mod:`spacy_negation.corpora.starsem_docs` turns the records into ``Doc``
objects; the metrics in :mod:`spacy_negation.metrics` score the records directly.

Format (Morante and Blanco 2012): one token per line, TAB-separated, a blank line
between sentences. Columns: document id, sentence number, token number (from 0), form,
lemma, POS, parse fragment, then ``***`` (no negation) or 3 columns per negation
instance (cue, scope, negated event); ``_`` marks a token outside that element, otherwise
the cell holds the part of the form that belongs to it.
"""
import warnings
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, TextIO, Tuple, Union

from ..errors import Errors, NegationFormatError, Warnings
from ..util import atomic_write_text, check_on_error, is_writable_form, read_utf8, split_lines
from .blocks import (NO_NEGATION, ROLES, Block, CellFormat, Instance, check_row, iter_blocks, locate,
                     parse_blocks, read_instances, repair_case)

__all__ = ["EMPTY", "NO_NEGATION", "N_TOKEN_COLUMNS", "TokenRow", "Instance", "Sentence", "read_starsem",
           "parse_starsem", "format_sentence", "write_starsem", "is_punct_pos", "locate", "repair_case"]

EMPTY = "_"
N_TOKEN_COLUMNS = 7
CELLS = CellFormat(empty=EMPTY)


@dataclass
class TokenRow:
    """The seven token columns of one line."""

    doc_id: str
    sent_no: str
    tok_no: int
    form: str
    lemma: str
    pos: str
    parse: str


@dataclass
class Sentence:
    """A sentence of a *SEM file.

    rows (List[TokenRow]): the token lines.
    instances (List[Instance]): the negation instances in column order.
    line (int): the 1-based line number of the first token line (0 if not from a file).
    """

    rows: List[TokenRow]
    instances: List[Instance] = field(default_factory=list)
    line: int = 0

    @property
    def doc_id(self) -> str:
        return self.rows[0].doc_id if self.rows else ""

    @property
    def sent_no(self) -> str:
        return self.rows[0].sent_no if self.rows else ""

    @property
    def forms(self) -> List[str]:
        return [row.form for row in self.rows]


def read_starsem(
    path: Union[str, Path], *, check_sequence: bool = True, check_forms: bool = False,
    on_error: str = "raise", check_corpus: bool = False,
) -> List[Sentence]:
    """Read a *SEM CoNLL file into sentences, validating it. A leading byte order mark
    is ignored; line endings are LF or CRLF.

    path (Union[str, Path]): the file.
    check_sequence (bool): require token numbers 0, 1, 2, ... within each sentence.
    check_forms (bool): refuse word forms that cannot be written back (whitespace,
        control characters; see :func:`spacy_negation.util.is_writable_form`).
    on_error (str): 'raise' (default) stops at the first bad sentence; 'skip' skips each
        bad sentence with warning W402 and repairs a cell that its token holds once in
        another letter case (warning W403).
    check_corpus (bool): also refuse what a gold corpus must not hold (see
        :func:`parse_starsem`). A last line without a line end is read as any other, as the
        metrics' reader (``evaluate``) reads it: one rule for both.
    RETURNS (List[Sentence]): the sentences in file order.
    RAISES (NegationFormatError): malformed input, with file and line in the message.
    """
    path = Path(path)
    text = read_utf8(path)
    lines = split_lines(path, text)
    sentences = list(parse_starsem(lines, path=str(path), check_sequence=check_sequence,
                                   check_forms=check_forms, on_error=on_error,
                                   check_corpus=check_corpus))
    if not sentences and not text.strip():  # (with on_error='skip', all may be skipped)
        raise NegationFormatError(Errors.E108.format(path=path), path)
    return sentences


def parse_starsem(
    lines: Iterable[str], *, path: str = "<string>", check_sequence: bool = True,
    check_forms: bool = False, on_error: str = "raise", check_corpus: bool = False,
) -> Iterator[Sentence]:
    """Parse *SEM lines (without line terminators) into sentences.

    lines (Iterable[str]): the lines; blank lines separate sentences (empty, or whitespace
        without a TAB: a tab-only line is a row of empty cells, refused with its line; see
        :func:`spacy_negation.corpora.blocks.is_blank`).
    path (str): the name used in error messages.
    check_sequence (bool): require token numbers 0, 1, 2, ... within each sentence.
    check_forms (bool): refuse word forms that cannot be written back.
    on_error (str): 'raise' or 'skip' (see :func:`read_starsem`).
    check_corpus (bool): also refuse a scope cell that overlaps a cue cell of its instance
        (E958: a scope never holds its own cue, Morante & Daelemans 2012; the one case of
        the CD-SCO training file, the whole of ``infinite`` as the scope of its affix
        ``in``, is kept as annotated with warning W951, so that the file converts back
        byte for byte) and a
        sentence whose sentence number came before in the same document (E959: a repeated
        sentence; the same document id after another document starts a new document, as
        in files joined together).
    YIELDS (Sentence): each sentence once complete.
    """
    lenient = check_on_error(on_error)
    parse = partial(_parse_block, path=path, check_sequence=check_sequence, check_forms=check_forms,
                    repair=lenient)
    if not check_corpus:
        yield from parse_blocks(iter_blocks(lines), parse, lenient, path)
        return
    seen: Dict[str, int] = {}  # sentence numbers of the current document -> first line
    current: List[str] = [""]

    def parse_checked(block: Block) -> Sentence:
        sentence = parse(block)
        _check_scopes(sentence, path)
        if sentence.doc_id != current[0]:  # a new run of the document id: files may be joined
            current[0] = sentence.doc_id
            seen.clear()
        first = seen.get(sentence.sent_no)
        if first is not None:
            raise NegationFormatError(Errors.E959.format(path=path, line=sentence.line, doc=sentence.doc_id,
                                                         sent=sentence.sent_no, first=first),
                                      path, sentence.line)
        seen[sentence.sent_no] = sentence.line
        return sentence

    yield from parse_blocks(iter_blocks(lines), parse_checked, lenient, path)


def _check_scopes(sentence: Sentence, path: str) -> None:
    """Refuse (E958) or repair (W951) scope cells that overlap a cue cell of their own
    instance (see :func:`parse_starsem`)."""
    forms = sentence.forms
    for k, inst in enumerate(sentence.instances):
        cues = dict(inst.cue)
        for n, (pos, cell) in enumerate(inst.scope):
            cue_cell = cues.get(pos)
            if cue_cell is None:
                continue
            cue = locate(forms[pos], cue_cell)
            start, end = locate(forms[pos], cell, cue)
            if start >= cue[1] or end <= cue[0]:
                continue
            line = sentence.line + pos
            # the scope minus the cue's characters, if that is one range: an affix's rest
            rest = [(a, b) for a, b in ((start, min(end, cue[0])), (max(start, cue[1]), end)) if a < b]
            if len(rest) != 1:
                raise NegationFormatError(Errors.E958.format(path=path, line=line, k=k + 1, cell=cell,
                                                             cue=cue_cell, form=forms[pos]), path, line)
            # an affixal cue inside a whole-token scope cell (the CD-SCO training file's
            # 'infinite'): kept as annotated, so that the file converts back byte for byte
            warnings.warn(Warnings.W951.format(path=path, line=line, k=k + 1, cell=cell, cue=cue_cell,
                                               rest=forms[pos][rest[0][0]:rest[0][1]]), stacklevel=2)


def _parse_block(block: Block, path: str, check_sequence: bool, check_forms: bool = False,
                 repair: bool = False) -> Sentence:
    first_line, n_cols = block[0][0], len(block[0][1])
    rows: List[TokenRow] = []
    for line, cols in block:
        n = len(cols)
        if n < N_TOKEN_COLUMNS + 1 or (n != N_TOKEN_COLUMNS + 1 and (n - N_TOKEN_COLUMNS) % 3):
            raise NegationFormatError(
                Errors.E101.format(path=path, line=line, n=n, content="\t".join(cols)), path, line
            )
        check_row(path, block, line, cols, ids=False)
        tok = cols[2]
        if not tok.isdigit() or not tok.isascii():
            raise NegationFormatError(Errors.E105.format(path=path, line=line, value=tok), path, line)
        tok_no = int(tok)
        if check_sequence and tok_no != len(rows):
            raise NegationFormatError(
                Errors.E106.format(path=path, line=line, value=tok_no, expected=len(rows)), path, line
            )
        if cols[3] == "":
            raise NegationFormatError(Errors.E110.format(path=path, line=line), path, line)
        if check_forms and not is_writable_form(cols[3]):
            raise NegationFormatError(Errors.E405.format(path=path, line=line, form=cols[3]), path, line)
        check_row(path, block, line, cols, width=False)
        rows.append(TokenRow(cols[0], cols[1], tok_no, cols[3], cols[4], cols[5], cols[6]))
    if n_cols == N_TOKEN_COLUMNS + 1:
        # One extra column: must be '***' on every token (a 1-column instance is impossible).
        for line, cols in block:
            if cols[N_TOKEN_COLUMNS] != NO_NEGATION:
                raise NegationFormatError(
                    Errors.E104.format(path=path, line=line, first_line=first_line), path, line
                )
        return Sentence(rows=rows, instances=[], line=first_line)
    instances = read_instances(path, block, [row.form for row in rows], N_TOKEN_COLUMNS, CELLS,
                               repair=repair, require_cue=True)
    return Sentence(rows=rows, instances=instances, line=first_line)


def format_sentence(sentence: Sentence) -> str:
    """Format one sentence as *SEM lines (no trailing blank line).

    sentence (Sentence): the sentence; instance cells index rows by position.
    RETURNS (str): the lines joined by newlines.
    """
    n = len(sentence.rows)
    columns: List[List[str]] = []
    for inst in sentence.instances:
        for role in ROLES:
            col = [EMPTY] * n
            for pos, cell in getattr(inst, role):
                col[pos] = cell
            columns.append(col)
    out = []
    for i, row in enumerate(sentence.rows):
        cells = [row.doc_id, row.sent_no, str(row.tok_no), row.form, row.lemma, row.pos, row.parse]
        cells.extend(col[i] for col in columns) if columns else cells.append(NO_NEGATION)
        out.append("\t".join(cells))
    return "\n".join(out)


def write_starsem(sentences: Iterable[Sentence], output: Union[str, Path, TextIO]) -> int:
    """Write sentences to a *SEM CoNLL file (a blank line between sentences, a newline
    after the last token line). A path is written atomically: nothing is left behind if
    formatting fails.

    sentences (Iterable[Sentence]): the sentences.
    output (Union[str, Path, TextIO]): a path or an open text stream.
    RETURNS (int): the number of sentences written.
    """
    text, count = _format_all(sentences)
    if hasattr(output, "write"):
        output.write(text)
    else:
        atomic_write_text(Path(output), text)
    return count


def _format_all(sentences: Iterable[Sentence]) -> Tuple[str, int]:
    blocks = [format_sentence(s) for s in sentences]
    return ("\n\n".join(blocks) + "\n" if blocks else ""), len(blocks)


def is_punct_pos(pos: str) -> bool:
    """The *SEM 2012 scorer's punctuation rule on a gold POS tag (Morante and Blanco
    2012): no character of [A-Za-z0-9_], or -LRB- / -RRB-.
    """
    if pos in ("-LRB-", "-RRB-"):
        return True
    return not any(c.isascii() and (c.isalnum() or c == "_") for c in pos)

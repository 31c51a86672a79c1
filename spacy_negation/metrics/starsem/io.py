"""Streaming *SEM 2012 CD-SCO reading for the metrics: two token-aligned files straight
into pairs of :class:`~..records.SentenceRecord`, sentence by sentence.

Memory holds one sentence of each file plus a read buffer, whatever the file size; no
spaCy, no ``TokenRow`` objects. The checks are those of the strict *SEM reader
(:mod:`spacy_negation.corpora.starsem`, same error codes, file and line) plus the ones the metrics
need: columns 0-3 of gold and system agree line by line (as ``eval.cd-sco.pl`` v2.2
requires, Morante & Blanco 2012), no empty cue/scope/event cell, no CR-only line endings,
no directory. A UTF-8 byte order mark at the start of a file is skipped.

Speed: a sentence without negation (one ``***`` column) is checked on its cells in bulk
and, when both sides are such sentences, counted without building a record.
"""
from itertools import compress
from typing import Dict, Iterator, List, NoReturn, Optional, Sequence, Tuple

from ...corpora.blocks import is_blank
from ...corpora.starsem import EMPTY, N_TOKEN_COLUMNS, NO_NEGATION, Sentence, is_punct_pos
from ...errors import Errors, NegationFormatError
from ..records import NegationRecord, Part, SentenceRecord
from ..textfile import Block, PathLike, check_input_file, iter_lines, iter_text_blocks

__all__ = ["Block", "PathLike", "check_input_file", "iter_lines", "iter_text_blocks",
           "punct_pos", "punct_mask", "ParsedSentence", "parse_block", "iter_sentences",
           "iter_records", "iter_aligned", "sentence_record"]

_NUMS: List[str] = []
_NOT_EMPTY = EMPTY.__ne__
_PUNCT_POS: Dict[str, bool] = {}


def _numbers(n: int) -> List[str]:
    while len(_NUMS) < n:
        _NUMS.append(str(len(_NUMS)))
    return _NUMS[:n]


def punct_pos(pos: str) -> bool:
    """:func:`spacy_negation.corpora.starsem.is_punct_pos`, cached per tag."""
    flag = _PUNCT_POS.get(pos)
    if flag is None:
        flag = _PUNCT_POS[pos] = is_punct_pos(pos)
    return flag


def punct_mask(tags: Sequence[str]) -> List[bool]:
    """:func:`punct_pos` of every tag.

    tags (Sequence[str]): the POS tags of a sentence.
    RETURNS (List[bool]): one flag per tag.
    """
    try:
        return list(map(_PUNCT_POS.__getitem__, tags))
    except KeyError:
        return [punct_pos(t) for t in tags]


# --- one sentence -----------------------------------------------------------------------

class ParsedSentence:
    """A parsed sentence: its key columns (0-3) for the alignment check and its record.

    line (int): the line number of its first token line.
    record (Optional[SentenceRecord]): the record; None for a sentence without negation
        read by the bulk check (built on demand by :meth:`get_record`).
    """

    __slots__ = ("line", "_keys", "record", "_cells")

    def __init__(self, line: int, keys: Optional[Tuple[Sequence[str], ...]],
                 record: Optional[SentenceRecord], cells: Optional[List[str]] = None) -> None:
        self.line = line
        self._keys = keys
        self.record = record
        self._cells = cells

    @property
    def keys(self) -> Tuple[Sequence[str], ...]:
        """Columns 0, 1, 2 and 3, each a tuple over the tokens."""
        if self._keys is None:
            c = self._cells or []
            n = (len(c) - 1) // 7
            self._keys = ((c[0],) * n, tuple(c[1::7]), tuple(c[2::7]), tuple(c[3::7]))
        return self._keys

    @property
    def has_negation(self) -> bool:
        return self.record is not None and bool(self.record.instances)

    def get_record(self) -> SentenceRecord:
        """The record (built from the kept cells for a bulk-read sentence)."""
        if self.record is None:
            c = self._cells or []
            self.record = SentenceRecord(c[3::7], punct_mask(c[5::7]), ())
        return self.record


def _plain(line: int, block: str) -> Optional[ParsedSentence]:
    """The bulk check of a sentence without negation: every line has exactly 8 columns,
    the last ``***``, one document id and sentence number, token numbers 0..n-1 and a
    form. None when anything differs (the full parser then reports what)."""
    if not block.endswith("\t" + NO_NEGATION):
        return None
    cells = block.split("\t")
    n = block.count("\n") + 1
    if len(cells) != 7 * n + 1:
        return None
    doc = cells[0]
    if "\n" in doc:
        return None
    # Cells 7, 14, ... hold "***\n<doc id>" at the line ends: with n - 1 newlines in the
    # block, every line has exactly seven tabs.
    if n > 1 and cells[7:7 * n:7].count(NO_NEGATION + "\n" + doc) != n - 1:
        return None
    sents = cells[1::7]
    if sents.count(sents[0]) != n or cells[2::7] != _numbers(n) or "" in cells[3::7]:
        return None
    return ParsedSentence(line, None, None, cells)


def parse_block(line: int, block: str, path: str) -> List[ParsedSentence]:
    """The sentences of a block (several when blank lines of whitespace separate them,
    :func:`spacy_negation.corpora.blocks.is_blank`).

    line (int): the number of the block's first line.
    block (str): the block's lines joined by newlines.
    path (str): the file name for messages.
    RETURNS (List[ParsedSentence]): the sentences.
    RAISES (NegationFormatError): malformed input, with file and line (the strict *SEM
        reader's codes, E114 for an empty negation cell).
    """
    plain = _plain(line, block)
    if plain is not None:
        return [plain]
    rows = [text.split("\t") for text in block.split("\n")]
    if min(map(len, rows)) > N_TOKEN_COLUMNS:
        try:
            return [_parse_rows(line, rows, path)]
        except NegationFormatError:
            pass  # parsed again line by line below: blank lines separate sentences
    return list(_parse_lines(line, block, path))


def _parse_lines(line: int, block: str, path: str) -> Iterator[ParsedSentence]:
    rows: List[List[str]] = []
    first = line
    for k, text in enumerate(block.split("\n")):
        if is_blank(text):
            if rows:
                yield _parse_rows(first, rows, path)
                rows = []
            first = line + k + 1
            continue
        rows.append(text.split("\t"))
    if rows:
        yield _parse_rows(first, rows, path)


def _fail(message: str, path: str, line: int) -> NegationFormatError:
    return NegationFormatError(message, path, line)


def _parse_rows(first: int, rows: List[List[str]], path: str) -> ParsedSentence:
    n_cols = len(rows[0])
    n_rows = len(rows)
    ok = n_cols == N_TOKEN_COLUMNS + 1 or (n_cols > N_TOKEN_COLUMNS + 1
                                          and (n_cols - N_TOKEN_COLUMNS) % 3 == 0)
    for k, cols in enumerate(rows if not ok or list(map(len, rows)).count(n_cols) != n_rows
                             else ()):
        n = len(cols)
        if n < N_TOKEN_COLUMNS + 1 or (n != N_TOKEN_COLUMNS + 1 and (n - N_TOKEN_COLUMNS) % 3):
            raise _fail(Errors.E101.format(path=path, line=first + k, n=n, content="\t".join(cols)),
                        path, first + k)
        if n != n_cols:
            raise _fail(Errors.E102.format(path=path, line=first + k, n=n, first_line=first,
                                           m=n_cols), path, first + k)
    return _from_columns(first, list(zip(*rows)), n_rows, n_cols, path)


def _from_columns(first: int, columns: List[Tuple[str, ...]], n_rows: int, n_cols: int,
                  path: str) -> ParsedSentence:
    """The checks and the record of a sentence given as columns (every row with n_cols
    cells)."""
    docs, sents, toks, forms = columns[0], columns[1], columns[2], columns[3]
    if list(toks) != _numbers(n_rows):
        for k, tok in enumerate(toks):
            if not tok.isdigit() or not tok.isascii():
                raise _fail(Errors.E105.format(path=path, line=first + k, value=tok), path, first + k)
            if int(tok) != k:
                raise _fail(Errors.E106.format(path=path, line=first + k, value=int(tok),
                                               expected=k), path, first + k)
    if "" in forms or docs.count(docs[0]) != n_rows or sents.count(sents[0]) != n_rows:
        _bad_token_columns(first, docs, sents, forms, path)
    neg = columns[N_TOKEN_COLUMNS:]
    if n_cols == N_TOKEN_COLUMNS + 1:
        for k, cell in enumerate(neg[0] if neg[0].count(NO_NEGATION) != n_rows else ()):
            if cell != NO_NEGATION:
                raise _fail(Errors.E104.format(path=path, line=first + k, first_line=first),
                            path, first + k)
    else:
        for col in neg:
            if NO_NEGATION in col:
                k = col.index(NO_NEGATION)
                raise _fail(Errors.E104.format(path=path, line=first + k, first_line=first),
                            path, first + k)
    instances: List[NegationRecord] = []
    for q in range(0 if n_cols == N_TOKEN_COLUMNS + 1 else (n_cols - N_TOKEN_COLUMNS) // 3):
        roles: List[Tuple[Part, ...]] = []
        for r, role in enumerate(("cue", "scope", "event")):
            parts: List[Part] = []
            col = neg[3 * q + r]
            for k in (compress(range(n_rows), map(_NOT_EMPTY, col))
                      if col.count(EMPTY) != n_rows else ()):
                cell = col[k]
                form = forms[k]
                if cell == form:
                    parts.append((k, 0, len(form)))
                    continue
                start = form.find(cell) if cell else -1
                if start < 0:
                    line = first + k
                    if cell == "":
                        raise _fail(Errors.E114.format(path=path, line=line, role=role,
                                                       col=N_TOKEN_COLUMNS + 3 * q + r + 1),
                                    path, line)
                    raise _fail(Errors.E107.format(path=path, line=line, role=role, cell=cell,
                                                   form=form), path, line)
                parts.append((k, start, start + len(cell)))
            roles.append(tuple(parts))
        if not roles[0]:
            line = first + n_rows - 1
            raise _fail(Errors.E103.format(path=path, line=line, k=q + 1,
                                           col=N_TOKEN_COLUMNS + 3 * q + 1, first_line=first),
                        path, line)
        instances.append(NegationRecord(*roles))
    record = SentenceRecord(forms, punct_mask(columns[5]), instances)
    return ParsedSentence(first, (docs, sents, toks, forms), record)


def _bad_token_columns(first: int, docs: Sequence[str], sents: Sequence[str],
                       forms: Sequence[str], path: str) -> None:
    """Raise the error of the first line with an empty form or another document id or
    sentence number than the sentence's first line."""
    for k, (doc, sent, form) in enumerate(zip(docs, sents, forms)):
        if form == "":
            raise _fail(Errors.E110.format(path=path, line=first + k), path, first + k)
        if doc != docs[0] or sent != sents[0]:
            raise _fail(Errors.E109.format(path=path, line=first + k, first_line=first,
                                           a=f"{docs[0]} {sents[0]}", b=f"{doc} {sent}"),
                        path, first + k)


def iter_sentences(path: PathLike) -> Iterator[ParsedSentence]:
    """The sentences of a *SEM file, streamed.

    path (PathLike): the file.
    YIELDS (ParsedSentence): each sentence in file order.
    RAISES (NegationFormatError): malformed input (file and line), or no sentence (E108).
    """
    name = str(path)
    empty = True
    for line, block in iter_text_blocks(path):
        for sent in parse_block(line, block, name):
            empty = False
            yield sent
    if empty:
        raise NegationFormatError(Errors.E108.format(path=path), path)


def iter_records(path: PathLike) -> Iterator[SentenceRecord]:
    """The records of a *SEM file, streamed (see :func:`iter_sentences`).

    path (PathLike): the file.
    YIELDS (SentenceRecord): each sentence's record.
    """
    for sent in iter_sentences(path):
        yield sent.get_record()


SentencePair = Tuple[ParsedSentence, ParsedSentence]


def iter_aligned(gold_path: PathLike, system_path: PathLike) -> Iterator[SentencePair]:
    """Gold and system sentences in step, checked to be token-aligned (columns 0-3 equal
    line by line, the same sentence boundaries). When a block of the system file equals
    the gold block, it is parsed once.

    gold_path (PathLike): the gold file.
    system_path (PathLike): the system file.
    YIELDS (Tuple[ParsedSentence, ParsedSentence]): (gold, system) per sentence.
    RAISES (NegationFormatError): malformed files, or the first misaligned line (E200).
    """
    gname, sname = str(gold_path), str(system_path)
    check_input_file(gold_path)
    check_input_file(system_path)
    gblocks = iter_text_blocks(gold_path)
    sblocks = iter_text_blocks(system_path)
    empty = True
    while True:
        g = next(gblocks, None)
        s = next(sblocks, None)
        if g is None or s is None:
            if g is None and s is None:
                break
            _misaligned_end(g, s, gname, sname)
        if g[1] == s[1] and g[0] == s[0]:
            for sent in parse_block(g[0], g[1], gname):
                empty = False
                yield sent, sent
            continue
        gs = parse_block(g[0], g[1], gname)
        ss = parse_block(s[0], s[1], sname)
        for k in range(max(len(gs), len(ss))):
            a = gs[k] if k < len(gs) else None
            b = ss[k] if k < len(ss) else None
            if a is None or b is None or a.keys != b.keys:
                _mismatch(a, b, gname, sname)
            empty = False
            yield a, b
    if empty:
        raise NegationFormatError(Errors.E108.format(path=gold_path), gold_path)


def _misaligned_end(g: Optional[Block], s: Optional[Block], gname: str, sname: str) -> NoReturn:
    """One file has a sentence where the other has ended."""
    a = parse_block(g[0], g[1], gname)[0] if g is not None else None
    b = parse_block(s[0], s[1], sname)[0] if s is not None else None
    _mismatch(a, b, gname, sname)


def _mismatch(a: Optional[ParsedSentence], b: Optional[ParsedSentence], gname: str,
              sname: str) -> NoReturn:
    """Raise E200 at the first line where the key columns differ."""
    na = len(a.keys[0]) if a is not None else 0
    nb = len(b.keys[0]) if b is not None else 0
    for j in range(max(na, nb)):
        ka = tuple(col[j] for col in a.keys) if a is not None and j < na else None
        kb = tuple(col[j] for col in b.keys) if b is not None and j < nb else None
        if ka == kb:
            continue
        gline, gdesc = _where(a, j, ka)
        sline, sdesc = _where(b, j, kb)
        raise NegationFormatError(
            Errors.E200.format(gold_path=gname, gold_line=gline, system_path=sname,
                               system_line=sline, gold=gdesc, system=sdesc),
            gname, gline if isinstance(gline, int) else None)
    raise AssertionError("sentences differ but no line does")  # pragma: no cover


def _where(sent: Optional[ParsedSentence], j: int, key: Optional[Tuple[str, ...]]
           ) -> Tuple[object, str]:
    if key is not None and sent is not None:
        return sent.line + j, "token " + "\t".join(key)
    if sent is not None:
        return sent.line + len(sent.keys[0]), "the end of a sentence"
    return "end", "the end of the file"


# --- records from Sentence objects ------------------------------------------------------

def sentence_record(sentence: Sentence, punct: Optional[Sequence[bool]] = None,
                    nis_punct: Optional[Sequence[bool]] = None) -> SentenceRecord:
    """The record of a parsed *SEM :class:`~spacy_negation.corpora.starsem.Sentence` (each cell
    becomes the part at its first occurrence in the form: the same string, which is what
    the scorers compare).

    sentence (Sentence): the sentence.
    punct (Optional[Sequence[bool]]): the punctuation mask; default: its POS column by
        the *SEM rule.
    nis_punct (Optional[Sequence[bool]]): the NIS punctuation mask (None: cell strings).
    RETURNS (SentenceRecord): the record.
    """
    tokens = [row.form for row in sentence.rows]
    if punct is None:
        punct = [punct_pos(row.pos) for row in sentence.rows]

    def parts(cells: Sequence[Tuple[int, str]]) -> Tuple[Part, ...]:
        out = []
        for i, cell in cells:
            s = tokens[i].find(cell)
            out.append((i, s, s + len(cell)))
        return tuple(out)

    instances = [NegationRecord(parts(inst.cue), parts(inst.scope), parts(inst.event))
                 for inst in sentence.instances if inst.cue]
    return SentenceRecord(tokens, punct, instances, nis_punct)

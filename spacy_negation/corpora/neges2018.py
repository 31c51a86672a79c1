"""SFU ReviewSP-NEG (Jiménez-Zafra et al. 2018), Spanish reviews, as the NEGES 2018 task-2
CoNLL files (format ``neges2018``; the NEGES 2019 XML: :mod:`.neges2019`).

Both releases are tokenized, lemmatized and POS-tagged (FreeLing); the readers keep those
tokens (multiword tokens such as ``a_pesar_de`` stay one token), lemmas
(``token.lemma_``) and EAGLES tags (``token.tag_``), so no spaCy tokenizer is involved
(use a Spanish vocab, e.g. ``convert --lang es``). Spaces between tokens are guessed with
Spanish punctuation rules (:data:`spacy_negation.corpora.spaces.SPANISH`); sentences of a
doc are joined by one space. A token's surrounding whitespace is stripped (one token of
the release, ``JULIA_NAVARRO `` in libros_yes_5_10); inner whitespace is an error. Cues
are whole tokens in both releases; a CoNLL cue cell that is a proper substring of its
word would become a partial part.

**NEGES 2018 CoNLL** (``neges2018``; a file, or a folder: every ``*.txt`` below it): TAB
columns document id (``<domain>_<yes|no>_<stars>_<n>``), sentence number, token number
(from 1), word, lemma, POS, POS type, then ``***`` or three columns per negation (cue
word, ``-``, ``-``); ``-`` is empty; every line ends with a TAB. Test files have only the
7 token columns (no gold): their docs have no negations. Only cues are annotated in this
format (scope/event columns are always ``-``; they would be read like the cue column if
filled). Known quirk: 6 column triples of train and 1 of dev have no cue word (e.g.
libros_no_2_2 sentences 2 and 4, dev ordenadores_no_2_12 sentence 2); such an instance
cannot exist in the data model: it is dropped with warning W400 (so train has 2,505
instead of 2,511 triples, dev 593 instead of 594); :func:`parse_neges_conll` keeps them.
Comparing with the XML shows the cause: in 5 of these sentences the conversion put the
cues of two XML instances into one column (libros_no_2_2: "no … nada" where the XML has
the instances "no" and "nada") and left the other column empty; the sixth is the XML's
``neg_structure`` without ``negexp`` (peliculas_yes_4_18). For those sentences the XML
(``neges2019``) is the better source. The POS type column is not kept in docs. Token
numbers must be positive integers but are not checked for sequence: the release has 16
lines with gaps or inversions (e.g. coches_no_1_13 sentence 14 jumps from 13 to 15;
moviles_yes_4_4 sentence 90 reads 16, 15, 17); tokens are kept in file order and the
*SEM writer renumbers them from 0.
"""
import warnings
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Iterator, List, Optional, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError, Warnings
from ..util import check_on_error, read_utf8, split_lines
from .blocks import (NO_NEGATION, Block, CellFormat, Instance, check_row, instance_record,
                     iter_blocks, parse_blocks, read_instances)
from .docs import read_files
from .records import NegationRecord, SentenceRecord, check_token
from .registry import formats
from .spaces import SPANISH, guess_spaces

EMPTY = "-"
N_TOKEN_COLUMNS = 7
CELLS = CellFormat(empty=EMPTY, strip=True)


@dataclass
class NegesRow:
    """One token line of a NEGES 2018 CoNLL file.

    form (str): the word (stripped).
    lemma (str): the lemma.
    pos (str): the EAGLES POS tag.
    pos_type (str): the POS type.
    line (int): the 1-based line.
    """

    form: str
    lemma: str
    pos: str
    pos_type: str
    line: int


@dataclass
class NegesSentence:
    """A sentence of a NEGES 2018 CoNLL file.

    doc_id (str): column 1.
    sent_no (str): column 2.
    rows (List[NegesRow]): the tokens.
    instances (List[Instance]): the negation column triples, in column order, including
        triples without any cue word (see the module docstring).
    annotated (bool): whether the sentence has annotation columns (False in test inputs).
    line (int): the line of its first token.
    """

    doc_id: str
    sent_no: str
    rows: List[NegesRow]
    instances: List[Instance] = field(default_factory=list)
    annotated: bool = True
    line: int = 0


def parse_neges_conll(path: Union[str, Path], on_error: str = "raise") -> List[NegesSentence]:
    """Parse a NEGES 2018 task-2 CoNLL file, validating it (a leading byte order mark is
    ignored; line endings are LF or CRLF).

    path (Union[str, Path]): the file.
    on_error (str): 'raise' stops at the first bad sentence; 'skip' skips each bad sentence
        with warning W402 and repairs a cell its word holds once in another letter case
        (warning W403).
    RETURNS (List[NegesSentence]): the sentences in file order.
    RAISES (NegationFormatError): malformed input, with file and line.
    """
    lenient = check_on_error(on_error)
    path = Path(path)
    text = read_utf8(path)
    blocks = iter_blocks(split_lines(path, text), trailing_tab=True)
    sentences = list(parse_blocks(blocks, partial(_parse_block, path, repair=lenient), lenient, path))
    if not sentences and not text.strip():
        raise NegationFormatError(Errors.E108.format(path=path), path)
    return sentences


def _parse_block(path: Path, block: Block, repair: bool = False) -> NegesSentence:
    first_line, first = block[0]
    n_cols = len(first)
    rows: List[NegesRow] = []
    for line, cols in block:
        n = len(cols)
        if n < N_TOKEN_COLUMNS or (n > N_TOKEN_COLUMNS + 1 and (n - N_TOKEN_COLUMNS) % 3):
            raise NegationFormatError(
                Errors.E411.format(path=path, line=line, n=n, content="\t".join(cols)), path, line)
        check_row(path, block, line, cols)
        if not (cols[2].isascii() and cols[2].isdigit() and int(cols[2]) > 0):
            raise NegationFormatError(Errors.E413.format(path=path, line=line, value=cols[2]), path, line)
        form = check_token(path, line, cols[3])
        rows.append(NegesRow(form, cols[4], cols[5], cols[6], line))
    sent = NegesSentence(doc_id=first[0], sent_no=first[1], rows=rows, line=first_line)
    if n_cols == N_TOKEN_COLUMNS:
        sent.annotated = False
        return sent
    if n_cols == N_TOKEN_COLUMNS + 1:
        for line, cols in block:
            if cols[N_TOKEN_COLUMNS] != NO_NEGATION:
                raise NegationFormatError(
                    Errors.E411.format(path=path, line=line, n=n_cols, content="\t".join(first)), path, line)
        return sent
    sent.instances = read_instances(path, block, [row.form for row in rows], N_TOKEN_COLUMNS, CELLS, repair=repair)
    return sent


def conll_sentence_record(sent: NegesSentence, path: Optional[Path] = None) -> SentenceRecord:
    """A NEGES CoNLL sentence as a sentence record; instances without a cue word are
    dropped with warning W400.

    sent (NegesSentence): the sentence.
    path (Optional[Path]): the file, for the warning.
    RETURNS (SentenceRecord): the record.
    """
    words = [r.form for r in sent.rows]
    negations: List[NegationRecord] = []
    for k, inst in enumerate(sent.instances):
        if not inst.cue:
            col = N_TOKEN_COLUMNS + 3 * k + 1
            warnings.warn(Warnings.W400.format(path=path, line=sent.line, k=k + 1,
                                               cols=f"{col}-{col + 2}"), stacklevel=2)
            continue
        negations.append(instance_record(words, inst))
    return SentenceRecord(
        doc_id=sent.doc_id, sent_id=sent.sent_no, words=words, spaces=guess_spaces(words, SPANISH),
        negations=negations, lemmas=[r.lemma for r in sent.rows], tags=[r.pos for r in sent.rows],
        line=sent.line,
    )


def conll_file_records(file: Path, on_error: str = "raise") -> Iterator[SentenceRecord]:
    """The sentence records of one NEGES 2018 CoNLL file.

    file (Path): the file.
    on_error (str): 'raise' or 'skip' (see :func:`parse_neges_conll`).
    YIELDS (SentenceRecord): the sentences.
    """
    for sent in parse_neges_conll(file, on_error):
        yield conll_sentence_record(sent, file)


@formats.register("neges2018")
def read_neges2018(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                   on_error: str = "raise") -> Iterator[Doc]:
    """Read NEGES 2018 task-2 CoNLL into docs with gold cues (the ``neges2018`` format).

    path (Union[str, Path]): a CoNLL file or a folder (every ``*.txt`` below it).
    vocab (Optional[Vocab]): the vocab; a new Spanish one if None.
    n_sents (int): sentences per doc (docs never cross reviews); 0 = whole reviews.
    on_error (str): 'raise' (default) or 'skip': skip each bad sentence with warning W402,
        repair a cell its word holds once in another letter case (W403).
    RETURNS (Iterator[Doc]): the docs, read as they are consumed.
    """
    return read_files(path, ".txt", partial(conll_file_records, on_error=on_error), vocab, n_sents, lang="es")

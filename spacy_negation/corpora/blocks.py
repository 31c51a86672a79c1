"""Column files with a blank line between sentences and three cells per negation instance:
the layout shared by the *SEM 2012 CD-SCO format (Morante and Blanco 2012) and the NEGES
2018 task-2 CoNLL files (Jiménez-Zafra et al. 2018).

A sentence is a *block* of ``(line number, cells)`` rows; after the token columns, a row
holds ``***`` (no negation) or a cue, scope and event cell per instance. This module reads
blocks, checks what both formats require of them, and turns the instance cells into
character ranges. Nothing here imports spaCy.
"""
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union

from ..errors import Errors, NegationFormatError, Warnings
from ..util import skip_or_raise
from .records import NegationRecord

NO_NEGATION = "***"
ROLES = ("cue", "scope", "event")

Cell = Tuple[int, str]  # (token position in the sentence, cell string)
Block = List[Tuple[int, List[str]]]  # (1-based line, cells) per token line
T = TypeVar("T")


@dataclass
class Instance:
    """One negation instance of a sentence: its cue, scope and event cells.

    cue (List[Tuple[int, str]]): (token position, cell) pairs in token order.
    scope (List[Tuple[int, str]]): (token position, cell) pairs, possibly empty.
    event (List[Tuple[int, str]]): (token position, cell) pairs, possibly empty.
    """

    cue: List[Cell] = field(default_factory=list)
    scope: List[Cell] = field(default_factory=list)
    event: List[Cell] = field(default_factory=list)


@dataclass(frozen=True)
class CellFormat:
    """How a format writes the cells of negation instances.

    empty (str): the cell of a token outside the element ('_' in *SEM, '-' in NEGES).
    strip (bool): strip cells of surrounding whitespace; a blank cell is then empty too
        (else a blank cell is an error, E114).
    """

    empty: str
    strip: bool = False


def is_blank(line: str) -> bool:
    """Whether a line separates sentences: empty, or spaces and other whitespace but no TAB.
    A line holding a TAB is a row of (empty) cells, so that a stray tab-only line is refused
    with its own line number instead of splitting a sentence in two (whose halves would
    be refused, at another line, for a missing cue or a token number out of sequence). The
    rule of every reader of the column formats: the *SEM reader of ``convert`` and of the
    metrics (``evaluate``, ``compare``), and NEGES 2018.

    line (str): the line, without its line terminator.
    RETURNS (bool): whether it is blank.
    """
    return "\t" not in line and not line.strip()


def iter_blocks(lines: Iterable[str], *, trailing_tab: bool = False) -> Iterator[Block]:
    """Split lines (without line terminators; a final CR is removed) into blocks of
    TAB-separated cells; blank lines (:func:`is_blank`) separate blocks.

    lines (Iterable[str]): the lines.
    trailing_tab (bool): drop the empty cell after a TAB that ends a line.
    YIELDS (Block): each block once complete.
    """
    block: Block = []
    for line_no, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if is_blank(line):
            if block:
                yield block
                block = []
            continue
        cols = line.split("\t")
        if trailing_tab and len(cols) > 1 and cols[-1] == "":
            cols = cols[:-1]
        block.append((line_no, cols))
    if block:
        yield block


def parse_blocks(blocks: Iterable[Block], parse: Callable[[Block], T], lenient: bool,
                 path: Union[str, Path]) -> Iterator[T]:
    """Parse each block; a bad block raises its error or, reading leniently, is skipped
    with warning W402.

    blocks (Iterable[Block]): the blocks.
    parse (Callable[[Block], T]): parses one block, raising NegationFormatError.
    lenient (bool): skip bad blocks instead of raising.
    path (Union[str, Path]): the file, for the warning.
    YIELDS (T): the parsed blocks.
    """
    for block in blocks:
        try:
            parsed = parse(block)
        except NegationFormatError as err:
            skip_or_raise(err, lenient, path, block[0][0])
            continue
        yield parsed


def check_row(path: Union[str, Path], block: Block, line: int, cols: List[str], *, width: bool = True,
              ids: bool = True) -> None:
    """A row has as many cells as the block's first row (E102) and the same document id
    and sentence number (E109).

    path (Union[str, Path]): the file, for messages.
    block (Block): the block.
    line (int): the row's line.
    cols (List[str]): the row's cells.
    width (bool): check the number of cells.
    ids (bool): check the document id and sentence number.
    """
    first_line, first = block[0]
    if width and len(cols) != len(first):
        raise NegationFormatError(
            Errors.E102.format(path=path, line=line, n=len(cols), first_line=first_line, m=len(first)),
            path, line)
    if ids and (cols[0] != first[0] or cols[1] != first[1]):
        raise NegationFormatError(
            Errors.E109.format(path=path, line=line, first_line=first_line,
                               a=f"{first[0]} {first[1]}", b=f"{cols[0]} {cols[1]}"), path, line)


def repair_case(form: str, cell: str) -> Optional[str]:
    """The part of a form that equals a cell up to letter case, if there is exactly one
    (``Playstation`` in ``PlayStation``): an unambiguous repair of a mistyped cell.

    form (str): the token's form.
    cell (str): the cell, not a substring of the form.
    RETURNS (Optional[str]): the form's substring, or None (no match, or several).
    """
    n = len(cell)
    folded = cell.casefold()
    found = {form[i:i + n] for i in range(len(form) - n + 1) if form[i:i + n].casefold() == folded}
    return found.pop() if len(found) == 1 else None


def read_instances(path: Union[str, Path], block: Block, forms: Sequence[str], n_token_columns: int,
                   cell_format: CellFormat, repair: bool = False, require_cue: bool = False) -> List[Instance]:
    """The negation instances of a block with annotation columns: ``***`` must not mix
    with instance cells (E104); each non-empty cell must be part of its token's form
    (E107), or, with ``repair``, equal a part of it up to letter case (fixed with warning
    W403). An instance without a cue cell is an error with ``require_cue`` (E103), else kept.

    path (Union[str, Path]): the file, for messages.
    block (Block): the block (every row as wide as the first).
    forms (Sequence[str]): the token forms, one per row.
    n_token_columns (int): the number of columns before the instance cells.
    cell_format (CellFormat): the format's empty cell and stripping.
    repair (bool): repair cells that differ from the form only in letter case.
    require_cue (bool): every instance needs a cue cell.
    RETURNS (List[Instance]): the instances in column order.
    """
    first_line = block[0][0]
    extra = [cols[n_token_columns:] for _, cols in block]
    for (line, _), cells in zip(block, extra):
        if NO_NEGATION in cells:
            raise NegationFormatError(Errors.E104.format(path=path, line=line, first_line=first_line),
                                      path, line)
    instances: List[Instance] = []
    for k in range((len(block[0][1]) - n_token_columns) // 3):
        inst = Instance()
        for pos, ((line, _), form, cells) in enumerate(zip(block, forms, extra)):
            for r, (role, cell) in enumerate(zip(ROLES, cells[3 * k: 3 * k + 3])):
                if cell_format.strip:
                    cell = cell.strip()
                if cell == cell_format.empty or (cell == "" and cell_format.strip):
                    continue
                if cell == "":
                    raise NegationFormatError(
                        Errors.E114.format(path=path, line=line, role=role, col=n_token_columns + 3 * k + r + 1),
                        path, line)
                getattr(inst, role).append((pos, _check_cell(path, line, role, cell, form, repair)))
        if require_cue and not inst.cue:
            line = block[-1][0]
            raise NegationFormatError(
                Errors.E103.format(path=path, line=line, k=k + 1, col=n_token_columns + 3 * k + 1,
                                   first_line=first_line), path, line)
        instances.append(inst)
    return instances


def _check_cell(path: Union[str, Path], line: int, role: str, cell: str, form: str, repair: bool) -> str:
    """The cell if it is part of the form, else its case repair (W403) or E107."""
    if cell in form:
        return cell
    fixed = repair_case(form, cell) if repair else None
    if fixed is None:
        raise NegationFormatError(Errors.E107.format(path=path, line=line, role=role, cell=cell, form=form),
                                  path, line)
    warnings.warn(Warnings.W403.format(path=path, line=line, role=role, cell=cell, fixed=fixed, form=form),
                  stacklevel=3)
    return fixed


def locate(form: str, cell: str, avoid: Optional[Tuple[int, int]] = None) -> Tuple[int, int]:
    """Character range of a cell inside its token's form.

    A cue cell is located at its first occurrence (prefixes such as ``un`` in
    ``unfortunate``). A scope or event cell on a token that also holds a cue part of the
    same instance is placed at its first occurrence that does not overlap the cue
    (``rest`` beside ``less`` in ``restlessly``).

    form (str): the token's form.
    cell (str): the cell, a substring of the form.
    avoid (Optional[Tuple[int, int]]): a character range to avoid overlapping.
    RETURNS (Tuple[int, int]): start and end offset within the form.
    """
    if cell == form:
        return 0, len(form)
    start = form.find(cell)
    if avoid is not None:
        s = start
        while s != -1:
            if s + len(cell) <= avoid[0] or s >= avoid[1]:
                return s, s + len(cell)
            s = form.find(cell, s + 1)
    return start, start + len(cell)


def instance_record(forms: Sequence[str], inst: Instance) -> NegationRecord:
    """An instance's cells as character ranges of its tokens (see :func:`locate`).

    forms (Sequence[str]): the sentence's token forms.
    inst (Instance): the instance.
    RETURNS (NegationRecord): role -> ``(position, start, end)`` parts.
    """
    cue_ranges: Dict[int, Tuple[int, int]] = {}
    record: NegationRecord = {}
    for role in ROLES:
        record[role] = []
        for pos, cell in getattr(inst, role):
            start, end = locate(forms[pos], cell, None if role == "cue" else cue_ranges.get(pos))
            if role == "cue":
                cue_ranges[pos] = (start, end)
            record[role].append((pos, start, end))
    return record

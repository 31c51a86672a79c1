"""What every metric family shares: flat count records, division with one explicit zero
rule, and the formatting of the numbers and tables that the reports print.

As in seqeval (Nakayama 2018), counting comes first and division once at the end: the
family modules count into :class:`Counts` records (summed with ``+=``), and these
functions only divide. 0/0 (or any zero denominator) gives 0.0, never an exception.

The one table writer of the package, the command lines and the project's scripts and
benchmarks: :func:`markdown_table` (with :func:`markdown_row`) for the Markdown reports,
:func:`text_table` for the plain-text tables that the commands print.
"""
from dataclasses import dataclass, fields
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar

_C = TypeVar("_C", bound="Counts")


@dataclass
class Counts:
    """Base of the flat count records of the metric families (every field a number).
    Records of the same type add field by field."""

    @classmethod
    def names(cls) -> Tuple[str, ...]:
        """The field names, in order.

        RETURNS (Tuple[str, ...]): the names.
        """
        return tuple(f.name for f in fields(cls))

    def add(self: _C, other: _C) -> None:
        """Add another record's counts in place.

        other (Counts): a record of the same type.
        """
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def __iadd__(self: _C, other: _C) -> _C:
        self.add(other)
        return self

    def as_dict(self, keys: Optional[Sequence[str]] = None) -> Dict[str, float]:
        """The counts as a dict.

        keys (Optional[Sequence[str]]): the fields to include (default: all, in order).
        RETURNS (Dict[str, float]): field -> count.
        """
        names = [f.name for f in fields(self)] if keys is None else keys
        return {k: getattr(self, k) for k in names}


def safe_div(num: float, den: float) -> float:
    """num / den, or 0.0 when den is 0.

    num (float): the numerator.
    den (float): the denominator.
    RETURNS (float): the quotient.
    """
    return num / den if den else 0.0


def f1(p: float, r: float) -> float:
    """The harmonic mean of precision and recall, 0.0 when both are 0.

    p (float): precision.
    r (float): recall.
    RETURNS (float): F1.
    """
    return 2 * p * r / (p + r) if (p + r) else 0.0


def prf(tp: float, fp: float, fn: float) -> Dict[str, float]:
    """Precision, recall and F1 from counts.

    tp (float): true positives.
    fp (float): false positives.
    fn (float): false negatives.
    RETURNS (Dict[str, float]): {"p", "r", "f"} as fractions.
    """
    p = safe_div(tp, tp + fp)
    r = safe_div(tp, tp + fn)
    return {"p": p, "r": r, "f": f1(p, r)}


def pct(x: Optional[float], signed: bool = False) -> str:
    """A fraction as a percentage with two decimals, for the report tables (the numbers
    themselves stay fractions): 0.8765 -> '87.65'; None -> '-'.

    x (Optional[float]): the fraction, or None where there is none.
    signed (bool): always give the sign, for differences: 0.0123 -> '+1.23'.
    RETURNS (str): the formatted percentage.
    """
    if x is None:
        return "-"
    return f"{100 * x:+.2f}" if signed else f"{100 * x:.2f}"


def markdown_row(cells: Sequence[Optional[str]]) -> str:
    """One row of a Markdown table: ``| a | b |``. A cell of None is left blank (``| |``);
    an empty string is a cell of no text (``|  |``).

    cells (Sequence[Optional[str]]): the cells' text.
    RETURNS (str): the row.
    """
    return "|" + "".join(" |" if cell is None else f" {cell} |" for cell in cells)


def markdown_table(head: Sequence[Optional[str]], rows: Iterable[Sequence[Optional[str]]] = (),
                   left: Optional[int] = None) -> List[str]:
    """A Markdown table as lines: the header, the rule under it and the rows (none: the
    header of rows written one at a time with :func:`markdown_row`).

    head (Sequence[Optional[str]]): the column names (None: a blank header cell).
    rows (Iterable[Sequence[Optional[str]]]): the cells of each row.
    left (Optional[int]): None: no column is aligned (``|---|``); N: the first N columns
        as written, the others right-aligned (``---:``).
    RETURNS (List[str]): the lines.
    """
    rule = "|" + "".join("---|" if left is None or k < left else "---:|" for k in range(len(head)))
    return [markdown_row(head), rule] + [markdown_row(row) for row in rows]


def text_table(head: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1,
               rule: bool = False) -> List[str]:
    """A plain-text table as lines: columns padded to their widest cell and two spaces
    apart, the first ``left`` left-aligned and the others right-aligned, trailing spaces
    cut.

    head (Sequence[str]): the column names.
    rows (Sequence[Sequence[str]]): the cells.
    left (int): the number of left-aligned columns.
    rule (bool): a line of '-' under the header, as long as the header.
    RETURNS (List[str]): the lines.
    """
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    lines = []
    for k, r in enumerate([head, *rows]):
        lines.append("  ".join(c.ljust(w) if j < left else c.rjust(w)
                               for j, (c, w) in enumerate(zip(r, widths))).rstrip())
        if rule and k == 0:
            lines.append("-" * len(lines[-1]))
    return lines

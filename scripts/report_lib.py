"""What the project's report scripts share: the "mean ± sd" cell of a measure over seeds,
the writing of a report's JSON and Markdown, and the error exit of their command lines. The tables themselves are written by the
package's one table writer (:func:`spacy_negation.metrics.core.markdown_table`, which the
benchmarks of bench/ use too), percentages by :func:`spacy_negation.metrics.core.pct`.
"""
import json
import sys
from pathlib import Path
from typing import Any, Optional

from spacy_negation.util import atomic_write_text


def mean_sd(mean: float, sd: Optional[float], signed: bool = False, scale: float = 100) -> str:
    """A mean over seeds with its sample standard deviation, two decimals each:
    ``87.65 ± 1.23``; the mean alone where there is no sd (one seed).

    mean (float): the mean.
    sd (Optional[float]): the sample standard deviation, or None.
    signed (bool): give the mean's sign, for differences: ``+1.23 ± 0.40``.
    scale (float): 100 for fractions printed as percentages (as ``pct``); 1 for numbers
        already in points.
    RETURNS (str): the cell.
    """
    text = f"{scale * mean:+.2f}" if signed else f"{scale * mean:.2f}"
    return text if sd is None else f"{text} ± {scale * sd:.2f}"


def write_report(out_dir: Path, stem: str, doc: Any, markdown: str, ensure_ascii: bool = True) -> None:
    """Write a report's ``STEM.json`` (indented, one trailing newline) and ``STEM.md``, each
    atomically (the folder is made if need be).

    out_dir (Path): the folder.
    stem (str): the files' name without the suffix.
    doc (Any): the JSON document.
    markdown (str): the Markdown text.
    ensure_ascii (bool): escape non-ASCII characters in the JSON.
    """
    atomic_write_text(out_dir / f"{stem}.json", json.dumps(doc, indent=2, ensure_ascii=ensure_ascii) + "\n")
    atomic_write_text(out_dir / f"{stem}.md", markdown)


def fail(message: object) -> int:
    """Print ``error: MESSAGE`` to stderr, for a command line that stops on bad input.

    message (object): what went wrong (an exception or a text).
    RETURNS (int): 1, the exit code.
    """
    print(f"error: {message}", file=sys.stderr)
    return 1

"""The one table writer of the package, the commands and the project's reports
(spacy_negation.metrics.core): Markdown and plain-text tables."""
from spacy_negation.metrics.core import markdown_row, markdown_table, text_table


def test_markdown_table() -> None:
    assert markdown_table(["a", "b"], [["1", "2"], ("3", "")]) == ["| a | b |", "|---|---|", "| 1 | 2 |", "| 3 |  |"]
    assert markdown_table(["a", "b", "c"], left=1) == ["| a | b | c |", "|---|---:|---:|"]


def test_markdown_row_blank_cells() -> None:
    assert markdown_row([None, "x"]) == "| | x |"
    assert markdown_row(["x", "", None]) == "| x |  | |"
    assert markdown_table([None, "m"], [["r", "1.0"]], left=1) == ["| | m |", "|---|---:|", "| r | 1.0 |"]


def test_text_table() -> None:
    rows = [["overall", "1", "87.65"], ["B", "12", "5.00"]]
    assert text_table(["Label", "TP", "F1"], rows) == ["Label    TP     F1", "overall   1  87.65", "B        12   5.00"]
    assert text_table(["m", "a", "v"], [["x", "long name", "1"]], left=2, rule=True) == [
        "m  a          v", "---------------", "x  long name  1"]

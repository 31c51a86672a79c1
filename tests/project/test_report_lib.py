"""scripts/report_lib.py: the mean ± sd cell of the reports and the writing of a report's
JSON and Markdown."""
import json
from pathlib import Path

from report_lib import mean_sd, write_report


def test_mean_sd_of_fractions_is_in_percent() -> None:
    assert mean_sd(0.87654, 0.01234) == "87.65 ± 1.23"
    assert mean_sd(0.8765, None) == "87.65"  # one seed: no sd
    assert mean_sd(0.0123, 0.004, signed=True) == "+1.23 ± 0.40"
    assert mean_sd(-0.0123, None, signed=True) == "-1.23"


def test_mean_sd_in_points() -> None:
    assert mean_sd(87.654, 1.234, scale=1) == "87.65 ± 1.23"
    assert mean_sd(2.5, 0.25, signed=True, scale=1) == "+2.50 ± 0.25"


def test_write_report(tmp_path: Path) -> None:
    doc = {"name": "café", "value": 0.5}
    write_report(tmp_path / "out", "report", doc, "# Report\n")
    assert (tmp_path / "out" / "report.json").read_text(encoding="utf-8") == json.dumps(doc, indent=2) + "\n"
    assert "\\u00e9" in (tmp_path / "out" / "report.json").read_text(encoding="utf-8")
    assert (tmp_path / "out" / "report.md").read_text(encoding="utf-8") == "# Report\n"
    write_report(tmp_path, "utf8", doc, "", ensure_ascii=False)
    assert json.loads((tmp_path / "utf8.json").read_text(encoding="utf-8")) == doc
    assert "café" in (tmp_path / "utf8.json").read_text(encoding="utf-8")

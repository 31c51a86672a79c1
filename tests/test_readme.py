"""The README's Python examples run and print what the README says."""
import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks():
    text = README.read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_data_model_example_prints_what_it_says():
    block = next(b for b in _blocks() if "doc._.negations = [" in b)
    expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(README), "exec"), {})
    assert out.getvalue().splitlines() == expected


def test_readme_general_row_quotes_results_general():
    """The README's results row of the general model is results/general.json (each split
    in its own convention, scripts/general_report.py)."""
    import json

    repo = Path(__file__).resolve().parents[1]
    report = json.loads((repo / "results" / "general.json").read_text(encoding="utf-8"))
    cells = " | ".join(f"{100 * report[split]['general']['scores']['nis_tok_f']:.2f}"
                       for split in ("cdsco", "bioscope", "sfu"))
    readme = (repo / "README.md").read_text(encoding="utf-8")
    assert f"| `en_negation_general` (each split in its convention) | {cells} |" in readme

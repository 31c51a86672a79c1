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
    """The README's results row of the general model is results/general.json: the mean ±
    sd over its seeds (each split in its own convention, scripts/general_report.py)."""
    import json

    repo = Path(__file__).resolve().parents[1]
    report = json.loads((repo / "results" / "general.json").read_text(encoding="utf-8"))
    seeds = [report[split]["general_seeds"] for split in ("cdsco", "bioscope", "sfu")]
    assert all(len(s["seeds"]) >= 3 for s in seeds)  # a headline is a distribution
    cells = " | ".join(f"{100 * s['mean']['nis_tok_f']:.2f} ± {100 * s['sd']['nis_tok_f']:.2f}" for s in seeds)
    readme = (repo / "README.md").read_text(encoding="utf-8")
    assert (f"| `en_negation_general` (mean ± sd of {len(seeds[0]['seeds'])} seeds, each split in its "
            f"convention) | {cells} |") in readme


def test_readme_fast_model_claims_quote_results():
    """The README's claims about en_negation_fast are results/general.json (its NIS_tok
    row) and results/vs_rules.json (words per second; above every rule tool's F1 on each
    split)."""
    import json

    repo = Path(__file__).resolve().parents[1]
    readme = (repo / "README.md").read_text(encoding="utf-8")
    general = json.loads((repo / "results" / "general.json").read_text(encoding="utf-8"))
    cells = " | ".join(f"{100 * general[split]['fast']['scores']['nis_tok_f']:.2f}"
                       for split in ("cdsco", "bioscope", "sfu"))
    assert f"| `en_negation_fast` (each split in its convention) | {cells} |" in readme
    bench = json.loads((repo / "results" / "vs_rules.json").read_text(encoding="utf-8"))
    rules = ("negspacy_en", "negspacy_en_clinical", "medspacy_context")
    speeds = []
    for split in ("cdsco", "bioscope", "sfu"):
        fast = bench[split]["en_negation_fast"]
        assert all(fast["f"] > bench[split][rule]["f"] for rule in rules), split
        speeds.append(fast["words_per_second"])
    quoted = re.search(r"`en_negation_fast` resolves ([\d,]+) to ([\d,]+) words per second", readme)
    assert quoted is not None
    low, high = (int(x.replace(",", "")) for x in quoted.groups())
    assert (low, high) == (int(round(min(speeds), -3)), int(round(max(speeds), -3)))

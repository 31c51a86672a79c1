"""``python -m spacy_negation compare`` and ``seeds``: table, --json, bad input, README."""
import json
import re
import shlex
import textwrap
from pathlib import Path
from typing import Dict, List

import pytest

from spacy_negation.cli import main
from spacy_negation.corpora.starsem import read_starsem
from spacy_negation.metrics.compare import DEFAULT_METRICS

from starsem_systems import SYS_B, files, starsem_text  # noqa: F401  (files: a fixture)
from util import modules_after

README = Path(__file__).resolve().parents[2] / "README.md"


def _run(capsys: pytest.CaptureFixture, *args: object) -> str:
    assert main([str(a) for a in args]) == 0
    return capsys.readouterr().out


def _fail(capsys: pytest.CaptureFixture, *args: object) -> str:
    assert main([str(a) for a in args]) == 1
    return capsys.readouterr().err


def test_json(files, capsys) -> None:  # noqa: F811
    gold, a, b = files
    doc = json.loads(_run(capsys, "compare", gold, a, b, a, "--samples", 300, "--ar-samples",
                          300, "--seed", 5, "--json"))
    assert set(doc) == {"gold", "systems", "sentences", "metrics", "samples", "ar_samples",
                        "seed", "confidence", "comparisons"}
    assert doc["systems"] == [str(a), str(b), str(a)] and doc["sentences"] == 4
    assert doc["metrics"] == list(DEFAULT_METRICS)
    assert (doc["samples"], doc["ar_samples"], doc["seed"], doc["confidence"]) == (300, 300, 5, 0.95)
    rows = doc["comparisons"]
    # by metric, then by system after the first
    assert [(r["metric"], r["b"]) for r in rows] == [(m, s) for m in DEFAULT_METRICS
                                                     for s in (str(b), str(a))]
    keys = {"metric", "a", "b", "value_a", "value_b", "diff", "ci_low", "ci_high",
            "p_bootstrap", "p_ar"}
    assert all(set(r) == keys and r["a"] == str(a) for r in rows)
    tok = rows[0]
    assert (tok["value_a"], tok["value_b"], tok["diff"]) == pytest.approx((2 / 3, 10 / 11, 8 / 33))
    assert tok["ci_low"] <= tok["diff"] <= tok["ci_high"]
    same = rows[1]  # A against itself
    assert (same["diff"], same["p_bootstrap"], same["p_ar"]) == (0.0, 1.0, 1.0)
    # the same seed gives the same document
    again = json.loads(_run(capsys, "compare", gold, a, b, a, "--samples", 300, "--ar-samples",
                            300, "--seed", 5, "--json"))
    assert again == doc


def test_table(files, capsys) -> None:  # noqa: F811
    gold, a, b = files
    out = _run(capsys, "compare", gold, a, b, "--metric", "faireval.fair.f", "--metric",
               "starsem.cues_b.f", "--samples", 200, "--ar-samples", 200)
    lines = out.splitlines()
    assert lines[0].startswith("Paired tests over 4 sentences: 200 bootstrap samples, 200 "
                               "approximate randomization shuffles, seed 0")
    assert lines[1].split() == ["metric", "A", "B", "A", "(%)", "B", "(%)", "B-A", "CI", "low",
                                "CI", "high", "p", "boot", "p", "AR"]
    assert set(lines[2]) == {"-"}
    assert [ln.split()[:3] for ln in lines[3:]] == [["faireval.fair.f", str(a), str(b)],
                                                    ["starsem.cues_b.f", str(a), str(b)]]
    # Cues B: A finds 2 of 3 cues (P_B = 2/2, R = 2/3 -> 80.00), B all (100.00)
    cues = lines[4].split()
    assert cues[3:6] == ["80.00", "100.00", "+20.00"]


def test_misaligned_system_names_file_and_line(files, tmp_path, capsys) -> None:  # noqa: F811
    gold, a, _ = files
    bad = tmp_path / "bad.txt"
    bad.write_text(a.read_text(encoding="utf-8").replace("\tShe\t", "\tHe\t"), encoding="utf-8")
    err = _fail(capsys, "compare", gold, a, bad)
    assert "[NEG-E200]" in err and str(bad) in err and f"{gold}:12" in err
    short = tmp_path / "short.txt"
    short.write_text("\n\n".join(starsem_text(SYS_B).split("\n\n")[:3]) + "\n",
                     encoding="utf-8")
    err = _fail(capsys, "compare", gold, a, short)
    assert "[NEG-E200]" in err and str(short) in err and "end of the file" in err


@pytest.mark.parametrize("args,code", [
    (["A"], "E702"),
    (["A", "B", "--metric", "nis.nis_tok"], "E701"),
    (["A", "B", "--metric", "nis.tok.f"], "E700"),
    (["A", "B", "--confidence", "95"], "E705"),
])
def test_bad_input(files, tmp_path, capsys, args: List[str], code: str) -> None:  # noqa: F811
    gold, a, b = files
    paths = {"A": str(a), "B": str(b)}
    err = _fail(capsys, "compare", gold, *[paths.get(x, x) for x in args])
    assert f"[NEG-{code}]" in err
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("args,code", [
    (["A", "B", "--samples", "0"], "E971"),
    (["A", "B", "--ar-samples", "-1"], "E971"),
    (["A", "B", "--seed", "-1"], "E971"),
    (["A", "MISSING"], "E130"),
])
def test_bad_arguments_are_usage_errors(files, tmp_path, capsys, args: List[str], code: str) -> None:  # noqa: F811
    """Counts out of range and missing files stop before any file is read (exit code 2)."""
    gold, a, b = files
    paths = {"A": str(a), "B": str(b), "MISSING": str(tmp_path / "missing.txt")}
    assert main(["compare", str(gold), *[paths.get(x, x) for x in args]]) == 2
    captured = capsys.readouterr()
    assert f"[NEG-{code}]" in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_malformed_system_file(files, tmp_path, capsys) -> None:  # noqa: F811
    gold, a, _ = files
    bad = tmp_path / "bad.txt"
    lines = a.read_text(encoding="utf-8").splitlines()
    lines[6] = lines[6].rsplit("\t", 1)[0]  # a line with a column less
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    err = _fail(capsys, "compare", gold, a, bad)
    assert "[NEG-E10" in err and f"{bad}:7" in err


def test_compare_imports_no_spacy(files) -> None:  # noqa: F811
    gold, a, b = files
    code = textwrap.dedent(f"""
        import contextlib, io
        from spacy_negation.cli import main
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(["compare", {str(gold)!r}, {str(a)!r}, {str(b)!r}, "--samples", "10",
                         "--ar-samples", "10", "--metric", "faireval.fair.f",
                         "--metric", "starsem.cues.f", "--metric", "nis.cue.f"]) == 0
            assert main(["vote", {str(gold)!r}, {str(a)!r}, {str(b)!r}, "-o", {str(gold) + ".vote"!r}]) == 0
    """)
    assert modules_after(code) == []


# --- seeds --------------------------------------------------------------------------------

def _evaluate_json(capsys, gold: Path, system: Path, out: Path) -> Dict:
    doc = json.loads(_run(capsys, "evaluate", gold, system, "--json"))
    out.write_text(json.dumps(doc), encoding="utf-8")
    return doc


def test_seeds(files, tmp_path, capsys) -> None:  # noqa: F811
    gold, a, b = files
    ja, jb = tmp_path / "a.json", tmp_path / "b.json"
    _evaluate_json(capsys, gold, a, ja)
    # the project's metrics files hold the document under "detail"
    db = _evaluate_json(capsys, gold, b, jb)
    jb.write_text(json.dumps({"scores": {}, "detail": db}), encoding="utf-8")
    doc = json.loads(_run(capsys, "seeds", ja, jb, "--json"))
    tok = doc["metrics"]["nis.nis_tok.f"]
    assert tok["values"] == pytest.approx([2 / 3, 10 / 11])
    assert tok["mean"] == pytest.approx((2 / 3 + 10 / 11) / 2)
    assert tok["sd"] == pytest.approx((10 / 11 - 2 / 3) / 2 ** 0.5)
    assert tok["ci"] is None and doc["systems"] is None
    assert list(doc["metrics"]) == list(DEFAULT_METRICS)
    pooled = json.loads(_run(capsys, "seeds", ja, jb, "--gold", gold, "--system", a, b,
                             "--metric", "nis.nis_tok.f", "--samples", 300, "--json"))
    ci = pooled["metrics"]["nis.nis_tok.f"]["ci"]
    assert ci["value"] == pytest.approx(tok["mean"]) and ci["low"] <= ci["value"] <= ci["high"]
    table = _run(capsys, "seeds", ja, jb, "--gold", gold, "--system", a, b, "--samples", 100)
    lines = table.splitlines()
    assert lines[0].startswith("Over 2 runs: mean and sample standard deviation")
    assert lines[1].split() == ["metric", "runs", "mean", "(%)", "sd", "CI", "low", "CI", "high"]
    assert lines[3].split()[:4] == ["nis.nis_tok.f", "2", "78.79", "17.14"]


def test_seeds_bad_input(files, tmp_path, capsys) -> None:  # noqa: F811
    gold, a, b = files
    ja, jb = tmp_path / "a.json", tmp_path / "b.json"
    _evaluate_json(capsys, gold, a, ja)
    jb.write_text('{"nis": {\n  "nis_tok": {"f": 0.5,}\n}}\n', encoding="utf-8")
    err = _fail(capsys, "seeds", ja, jb)
    assert "[NEG-E706]" in err and f"{jb}:2" in err
    jb.write_text('{"nis": {"nis_tok": {"f": "high"}}}', encoding="utf-8")
    assert "[NEG-E708]" in _fail(capsys, "seeds", ja, jb, "--metric", "nis.nis_tok.f")
    assert "[NEG-E707]" in _fail(capsys, "seeds", ja, jb, "--metric", "nis.nis_ex.f")
    assert "[NEG-E709]" in _fail(capsys, "seeds", ja)
    assert "[NEG-E710]" in _fail(capsys, "seeds", ja, ja, "--gold", gold, "--system", a)
    assert "[NEG-E712]" in _fail(capsys, "seeds", ja, ja, "--system", a, b)
    assert main(["seeds", str(ja), str(tmp_path / "none.json")]) == 2
    assert "[NEG-E130]" in capsys.readouterr().err


def test_seeds_names_a_metrics_json_nested_too_deeply_or_with_a_huge_number(tmp_path, capsys) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    huge = tmp_path / "huge.json"
    huge.write_text('{"nis": ' + "7" * 5000 + "}", encoding="utf-8")
    err = _fail(capsys, "seeds", deep, huge)
    assert f"[NEG-E706] {deep}:1: not a JSON file: nested too deeply" in err and "Traceback" not in err
    err = _fail(capsys, "seeds", huge, deep)
    assert f"[NEG-E706] {huge}:1: not a JSON file: Exceeds the limit (4300 digits)" in err


# --- README -------------------------------------------------------------------------------

def test_readme_compare_lines_run_as_documented(files, tmp_path, capsys) -> None:  # noqa: F811
    """The README's compare/seeds/vote commands run on real files, and the defaults it names
    are the defaults."""
    gold, a, b = files
    text = README.read_text(encoding="utf-8")
    commands = re.findall(r"^python -m spacy_negation ((?:compare|seeds|vote) [^#\n]*)", text, re.M)
    assert {c.split()[0] for c in commands} == {"compare", "seeds", "vote"}
    ja, jb = tmp_path / "run1.json", tmp_path / "run2.json"
    _evaluate_json(capsys, gold, a, ja)
    _evaluate_json(capsys, gold, b, jb)
    names = {"GOLD.txt": gold, "A.txt": a, "B.txt": b, "C.txt": a, "run1.json": ja,
             "run2.json": jb, "run3.json": jb, "VOTE.txt": tmp_path / "VOTE.txt"}
    for command in commands:
        argv = [str(names.get(x, x)) for x in shlex.split(command)]
        if argv[0] == "vote":  # A, B and A again: A's instances
            assert main(argv) == 0 and "instances kept" in capsys.readouterr().err
            assert [x.instances for x in read_starsem(tmp_path / "VOTE.txt")] == [
                x.instances for x in read_starsem(a)]
            continue
        out = _run(capsys, *argv, "--samples", 50, *(["--ar-samples", 50]
                                                     if argv[0] == "compare" else []))
        assert out.strip()
    section = " ".join(text[text.index("## Metrics"):text.index("## Results")].split())
    assert "NIS_tok F1, NIS_ex F1 and *SEM Scopes B (cue match) F1" in section
    default = json.loads(_run(capsys, "compare", gold, a, b, "--samples", 20, "--ar-samples", 20,
                              "--json"))
    assert default["metrics"] == ["nis.nis_tok.f", "nis.nis_ex.f", "starsem.scopes_cue_match_b.f"]
    assert default["confidence"] == 0.95
    assert "faireval.fair.f" in section

"""The ``faireval`` command: tables, JSON, options and errors."""
import json
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

from spacy_negation.cli import main as cli_main
from spacy_negation.metrics.faireval import BE_WEIGHTS_FORMULA

KEYS = {"Prec": "p", "Rec": "r", "F1": "f"}


def run_json(capsys: Any, args: List[Any]) -> Dict[str, Any]:
    assert cli_main(["faireval", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def pair(tmp_path: Path):
    target = write(tmp_path / "gold.tsv", "A\t1\t2\t1, 2\nB\t4\t4\t4\n\nEMPTY\t999\t999\t999\n")
    system = write(tmp_path / "pred.tsv", "A\t1\t3\t1, 2, 3\nC\t4\t4\t4\n\nA\t5\t5\t5\n")
    return target, system


def test_json_output(capsys, pair):
    out = run_json(capsys, pair)
    assert set(out) >= {"traditional", "fair", "weighted", "per_label", "confusion"}
    assert out["fair"]["BE"] == out["fair"]["BEL"] == 1 and out["fair"]["LE"] == 1
    assert out["fair"]["FP"] == 1 and out["fair"]["TP"] == 0
    assert out["traditional"] == {"TP": 0, "FP": 3, "FN": 2, "p": 0.0, "r": 0.0, "f": 0.0}
    # paper weights: BEL = .5 TP + .5 FP; LE = .5 FP + .5 FN -> tp .5, fp 2, fn .5
    assert out["weighted"]["p"] == pytest.approx(0.5 / 2.5)
    assert out["weighted"]["r"] == pytest.approx(0.5 / 1.0)
    assert out["confusion"]["B"]["C"] == 1 and out["confusion"]["_"]["A"] == 1
    assert out["per_label"]["fair"]["B"]["LE"] == 1
    assert out["target_labels"] == {"A": 1, "B": 1}
    assert out["settings"]["sentences"] == 2
    # focus system: the LE goes to the system label
    out = run_json(capsys, [*pair, "--focus", "system"])
    assert out["per_label"]["fair"]["C"]["LE"] == 1 and out["per_label"]["fair"]["B"]["LE"] == 0


def test_table_output(capsys, pair):
    assert cli_main(["faireval", str(pair[0]), str(pair[1])]) == 0
    out = capsys.readouterr().out
    for title in ("Traditional evaluation", "Fair evaluation", "Weighted evaluation",
                  "Comparison", "Confusion matrix", "Target label frequencies"):
        assert title in out
    # fair overall: TP FP LE BE LBE FN, then P R F1 in percent (tp 0 -> 0.00)
    assert re.search(r"^overall\s+0\s+1\s+1\s+1\s+0\s+0\s+0\.00\s+0\.00\s+0\.00$", out, re.M)
    # weighted columns follow the formula: LE BES BEL BEO LBE TP FP FN
    assert re.search(r"^Label\s+LE\s+BES\s+BEL\s+BEO\s+LBE\s+TP\s+FP\s+FN\s+P\s+R\s+F1$", out, re.M)
    assert re.search(r"^Weighted\s+20\.00\s+50\.00\s+28\.57$", out, re.M)
    assert re.search(r"^B\s+0\s+0\s+1\s+0$", out, re.M)  # confusion row B: A B C _


def test_weights_labels_and_exclude(capsys, pair):
    out = run_json(capsys, [*pair, "--weights", BE_WEIGHTS_FORMULA])
    # BE = .5 TP + .25 FP + .25 FN; LE = .5 FP + .5 FN -> tp .5, fp 1.75, fn .75
    assert out["weighted"]["p"] == pytest.approx(0.5 / 2.25)
    assert out["weighted"]["r"] == pytest.approx(0.5 / 1.25)
    out = run_json(capsys, [*pair, "--labels", "A"])
    assert set(out["per_label"]["fair"]) == {"A"} and out["fair"]["FP"] == 1
    out = run_json(capsys, [*pair, "--exclude", "A,EMPTY,NONE"])
    assert set(out["per_label"]["fair"]) == {"B", "C"} and out["fair"]["LE"] == 1


@pytest.mark.parametrize("args,code", [
    (["--weights", "LE = FP"], "E252"),
    (["--weights", "XY = 1 FP"], "E253"),
])
def test_bad_weights(capsys, pair, args, code):
    assert cli_main(["faireval", str(pair[0]), str(pair[1]), *args]) == 1
    assert f"[NEG-{code}]" in capsys.readouterr().err


def test_bad_input_files(capsys, tmp_path, pair):
    bad = write(tmp_path / "bad.tsv", "A\t1\t2\t1, 2\n\nA\t2\t3\t7\n")
    assert cli_main(["faireval", str(bad), str(pair[1])]) == 1
    err = capsys.readouterr().err
    assert "[NEG-E262]" in err and f"{bad}:3:" in err
    short = write(tmp_path / "short.tsv", "A\t1\t2\t1, 2\n")
    assert cli_main(["faireval", str(pair[0]), str(short)]) == 1
    assert "[NEG-E255]" in capsys.readouterr().err
    assert cli_main(["faireval", str(tmp_path / "missing.tsv"), str(short)]) == 2
    assert "[NEG-E130]" in capsys.readouterr().err


def test_reference_cases_through_the_command(capsys, shared_dir):
    ref = shared_dir / "fixtures" / "reference-scores"
    expected = json.loads((ref / "expected.json").read_text(encoding="utf-8"))
    micro = expected["faireval_micro"]
    case = ref / "faireval" / "f12_focus_attribution"
    b = micro["f12_focus_attribution"]["B_system_halftpBE"]["exact"]["eval"]
    out = run_json(capsys, [case / "target", case / "system", "--focus", "system", "--weights",
                            expected["faireval_configs"]["B_system_halftpBE"]["weights"]])
    for method in ("traditional", "fair", "weighted"):
        for label, block in b["per_label"][method].items():
            for key, value in block.items():
                assert out["per_label"][method][label][KEYS.get(key, key)] == pytest.approx(
                    value, abs=1e-12)
    assert all(out["confusion"][t][s] == n for t, row in b["conf"].items() for s, n in row.items())
    # f15: the reference's punctuation handling on request, our fix by default
    case = ref / "faireval" / "f15_conll_trailing_punct"
    f15 = micro["f15_conll_trailing_punct"]["ignore_punct_True"]["exact"]["eval"]["overall"]
    out = run_json(capsys, [case / "target", case / "system", "--ignore-punct", "--punct-compat"])
    assert out["fair"]["BES"] == f15["fair"]["BES"] == 1
    assert out["weighted"]["f"] == pytest.approx(f15["weighted"]["F1"], abs=1e-12)
    out = run_json(capsys, [case / "target", case / "system", "--ignore-punct"])
    assert out["fair"]["TP"] == 1 and out["fair"]["BE"] == 0
    out = run_json(capsys, [case / "target", case / "system"])
    assert out["fair"]["BES"] == 1


@pytest.mark.parametrize("labels", ["", ",", " , ,"])
def test_empty_label_list_is_an_error(capsys, tmp_path, labels):
    target = write(tmp_path / "gold.tsv", "A\t1\t2\t1, 2\nB\t4\t4\t4\n")
    system = write(tmp_path / "pred.tsv", "A\t1\t3\t1, 2, 3\nB\t4\t4\t4\n")
    assert cli_main(["faireval", str(target), str(system), "--labels", labels]) == 1
    assert "[NEG-E955]" in capsys.readouterr().err
    assert run_json(capsys, [target, system, "--labels", "B"])["fair"]["f"] == 1.0

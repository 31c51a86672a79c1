"""``python -m spacy_negation evaluate``: tables, --json shape, --starsem-compat, errors."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from spacy_negation.cli import main

from starsem_cases import GOLD, PERL_CASES

ROW_KEYS = {"gold", "system", "tp", "fp", "fn", "p", "r", "f"}
STARSEM_ROWS = {"cues", "cues_b", "scopes_cue_match", "scopes_cue_match_b", "scopes_no_cue_match",
                "scopes_no_cue_match_b", "scope_tokens", "negated", "negated_b", "full_negation",
                "full_negation_b"}
FAIR_KEYS = {"TP", "FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE", "p", "r", "f"}
TRAD_KEYS = {"TP", "FP", "FN", "p", "r", "f"}


def _json(capsys: pytest.CaptureFixture, *args: str) -> dict:
    assert main(["evaluate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_shape_exactly(starsem_refdir: Path, capsys: pytest.CaptureFixture) -> None:
    d = starsem_refdir / "m12_greedy_order_partial_first"
    out = _json(capsys, str(d / "gold.txt"), str(d / "system.txt"))
    assert set(out) == {"starsem", "nis", "faireval"}
    assert set(out["starsem"]) == STARSEM_ROWS | {"sentences"}
    for key in STARSEM_ROWS:
        assert set(out["starsem"][key]) == ROW_KEYS, key
    assert set(out["starsem"]["sentences"]) == {"total", "negation", "negation_with_errors",
                                                "correct_pct", "correct_negation_pct"}
    assert set(out["nis"]) == {"counts", "cue", "nis_tok", "nis_ex", "token_mode"}
    assert set(out["nis"]["counts"]) == {"gold", "system", "matched"}
    for key in ("cue", "nis_tok", "nis_ex", "token_mode"):
        assert set(out["nis"][key]) == {"p", "r", "f"}
    fe = out["faireval"]
    assert set(fe) == {"traditional", "fair", "weighted", "per_label"}
    assert set(fe["traditional"]) == TRAD_KEYS
    assert set(fe["fair"]) == set(fe["weighted"]) == FAIR_KEYS
    assert set(fe["per_label"]) == {"traditional", "fair", "weighted"}
    assert set(fe["per_label"]["fair"]) == {"CUE", "MWCUE", "SCOPE"}
    for method, keys in (("traditional", TRAD_KEYS), ("fair", FAIR_KEYS), ("weighted", FAIR_KEYS)):
        for label, values in fe["per_label"][method].items():
            assert set(values) == keys, (method, label)
    # values: fractions, true tp
    assert out["starsem"]["scope_tokens"]["p"] == 0.2
    assert out["nis"]["token_mode"]["p"] == 0.8
    assert out["nis"]["counts"] == {"gold": 1, "system": 2, "matched": 1}


def test_json_tp_is_the_tp_used(starsem_refdir: Path, capsys: pytest.CaptureFixture) -> None:
    d = starsem_refdir / "m01_partial_multiword_cue"
    out = _json(capsys, str(d / "gold.txt"), str(d / "system.txt"))
    assert out["starsem"]["scopes_no_cue_match"]["tp"] == 1       # perl prints 0
    assert out["starsem"]["scopes_no_cue_match_b"]["p"] == 1.0
    assert out["starsem"]["scopes_cue_match"]["tp"] == 0


@pytest.mark.parametrize("case", PERL_CASES[:4] + ["m16_negated_partial_not_last"])
def test_starsem_compat_table(starsem_refdir: Path, capsys: pytest.CaptureFixture, case: str) -> None:
    d = starsem_refdir / case
    assert main(["evaluate", str(d / "gold.txt"), str(d / "system.txt"), "--starsem-compat"]) == 0
    out = capsys.readouterr().out
    assert (d / "out_perl.txt").read_text(encoding="utf-8") in out
    assert "NIS" in out and "FairEval" in out


def test_default_tables(starsem_refdir: Path, capsys: pytest.CaptureFixture) -> None:
    d = starsem_refdir / "m09_duplicate_system_instance"
    assert main(["evaluate", str(d / "gold.txt"), str(d / "system.txt")]) == 0
    out = capsys.readouterr().out
    assert "Cues:                            1 |      2 |    1 |    1 |    0 |         50.00 |     100.00 |   66.67" in out
    assert "Scope NIS_ex" in out and "fair overall" in out


def test_misaligned_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold = tmp_path / "gold.txt"
    gold.write_text(GOLD, encoding="utf-8")
    system = tmp_path / "system.txt"
    system.write_text(GOLD.replace("d\t0\t3\tgo", "d\t0\t3\tgone"), encoding="utf-8")
    assert main(["evaluate", str(gold), str(system), "--json"]) == 1
    err = capsys.readouterr().err
    assert "[NEG-E200]" in err and f"{gold}:4" in err and f"{system}:4" in err


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold = tmp_path / "gold.txt"
    gold.write_text(GOLD, encoding="utf-8")
    assert main(["evaluate", str(gold), str(tmp_path / "missing.txt")]) == 2  # a usage error
    assert "[NEG-E130]" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text(GOLD.replace("d\t1\t1\t.\t.\t.\t*\t***", "d\t1\t1\t.\t.\t.\t*\t_\t_"), encoding="utf-8")
    assert main(["evaluate", str(gold), str(bad)]) == 1
    assert f"{bad}:8" in capsys.readouterr().err


def test_module_entry_point(starsem_refdir: Path) -> None:
    d = starsem_refdir / "m05_abbreviation_dot"
    res = subprocess.run([sys.executable, "-m", "spacy_negation", "evaluate", str(d / "gold.txt"),
                          str(d / "system.txt"), "--starsem-compat"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert (d / "out_perl.txt").read_text(encoding="utf-8") in res.stdout


@pytest.mark.slow
def test_cdsco_dev_against_itself(cdsco_dir: Path, capsys: pytest.CaptureFixture) -> None:
    dev = str(cdsco_dir / "SEM-2012-SharedTask-CD-SCO-dev-09032012.txt")
    out = _json(capsys, dev, dev)
    for key in STARSEM_ROWS:
        assert out["starsem"][key]["f"] == 1.0, key
    for key in ("cue", "nis_tok", "nis_ex", "token_mode"):
        assert out["nis"][key]["f"] == 1.0
    for key in ("traditional", "fair", "weighted"):
        assert out["faireval"][key]["f"] == 1.0

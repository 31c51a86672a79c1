"""scripts/lang_report.py: results/norec.* and results/nubes.* from the seeds' scores files
(the keys the issues' checks read, mean and sample sd over the seeds, the goals)."""
import json
from pathlib import Path
from typing import Dict

import pytest

from lang_report import main


def write_seed(metrics: Path, seed: int, split: str, scores: Dict[str, float], wps: float = 40000.0) -> None:
    folder = metrics / f"seed{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"scores": scores, "speed": {"words": 1000, "seconds": 1000 / wps, "words_per_second": wps}}
    (folder / f"on_{split}.json").write_text(json.dumps(doc), encoding="utf-8")


def norec_scores(x: float) -> Dict[str, float]:
    return {"neg_cue_f": x, "neg_cue_b_f": x - 0.01, "neg_scm_f": x - 0.2, "neg_st_f": x - 0.1,
            "neg_full_f": x - 0.25, "neg_nis_tok_f": x - 0.05}


def test_norec_report(tmp_path: Path) -> None:
    metrics = tmp_path / "metrics"
    for seed, x in ((0, 0.90), (1, 0.92), (2, 0.94)):
        write_seed(metrics, seed, "norec", norec_scores(x))
    (metrics / "selected.json").write_text(json.dumps({"seed": 1}), encoding="utf-8")
    assert main(["norec", "--metrics-dir", str(metrics), "--out-dir", str(tmp_path / "out")]) == 0
    doc = json.loads((tmp_path / "out" / "norec.json").read_text(encoding="utf-8"))
    cues = doc["test"]["cues_f"]
    assert cues["mean"] == pytest.approx(0.92)
    assert cues["sd"] == pytest.approx(0.02)
    assert cues["seeds"] == {"0": 0.90, "1": 0.92, "2": 0.94}
    assert set(doc["test"]) >= {"cues_f", "scm_f", "st_f", "full_f", "nis_tok_f"}
    assert doc["test"]["full_f"]["mean"] == pytest.approx(0.67)
    assert doc["goals"]["cues_f"]["met"] is False  # 0.92 < 0.934
    assert doc["goals"]["st_f"]["met"] is False  # 0.82 < 0.836
    assert doc["selected"] == {"seed": 1}
    md = (tmp_path / "out" / "norec.md").read_text(encoding="utf-8")
    assert "92.00 ± 2.00" in md and "93.36" in md


def test_norec_report_needs_three_seeds(tmp_path: Path) -> None:
    metrics = tmp_path / "metrics"
    for seed in (0, 1):
        write_seed(metrics, seed, "norec", norec_scores(0.9))
    assert main(["norec", "--metrics-dir", str(metrics), "--out-dir", str(tmp_path / "out")]) == 1
    assert not (tmp_path / "out" / "norec.json").exists()


def test_nubes_report(tmp_path: Path) -> None:
    metrics = tmp_path / "metrics"
    for seed, x in ((0, 0.96), (1, 0.97), (2, 0.98)):
        scores = {f"{prefix}_{key}": x - (0.1 if prefix == "spec" else 0.0)
                  for prefix in ("neg", "spec") for key in ("cue_f", "st_f", "scm_f", "nis_tok_f")}
        write_seed(metrics, seed, "nubes", scores)
        write_seed(metrics, seed, "nubes_iula", {k: v - 0.05 for k, v in scores.items()})
    assert main(["nubes", "--metrics-dir", str(metrics), "--out-dir", str(tmp_path / "out")]) == 0
    doc = json.loads((tmp_path / "out" / "nubes.json").read_text(encoding="utf-8"))
    assert doc["test"]["negation"]["cue_f"]["mean"] == pytest.approx(0.97)
    assert doc["test"]["uncertainty"]["st_f"]["mean"] == pytest.approx(0.87)
    assert doc["iula_test"]["negation"]["st_f"]["mean"] == pytest.approx(0.92)
    assert doc["goals"]["negation.cue_f"]["met"] is True
    assert doc["goals"]["uncertainty.st_f"]["met"] is True
    assert doc["goals"]["negation.st_f"]["met"] is True


def test_missing_key_is_an_error(tmp_path: Path) -> None:
    metrics = tmp_path / "metrics"
    for seed in (0, 1, 2):
        write_seed(metrics, seed, "nubes", {"neg_cue_f": 0.9})
    assert main(["nubes", "--metrics-dir", str(metrics), "--out-dir", str(tmp_path / "out")]) == 1
    assert not (tmp_path / "out").exists()

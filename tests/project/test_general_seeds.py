"""scripts/general_seeds.py (the general model over seeds: the median-dev seed is shipped)
and the seed rows of scripts/general_report.py."""
import json
from pathlib import Path

import pytest

from util import REPO, load_module

SPLITS = ("cdsco", "bioscope", "sfu", "bioscope_clinical")
MEASURES = ("neg_cue_b_f", "neg_scm_b_f", "neg_st_f", "neg_nis_tok_f", "neg_nis_ex_f")


def _seed(root: Path, seed: int, dev: float, test: float, evaluated: bool = True, finished: bool = True) -> None:
    best = root / "training" / f"seed{seed}" / "model-best"
    best.mkdir(parents=True)
    (best / "meta.json").write_text(json.dumps({"name": f"seed{seed}", "performance": {"neg_nis_tok_f": dev}}))
    (best.parent / "model-last").mkdir()  # spaCy writes it at every evaluation
    (best.parent / "model-last" / "meta.json").write_text("{}")
    if finished:
        (best.parent / "training-finished.json").write_text("{}")
    if evaluated:
        out = root / "metrics" / f"seed{seed}"
        out.mkdir(parents=True)
        for split in SPLITS:
            (out / f"on_{split}.json").write_text(json.dumps({"scores": {k: test for k in MEASURES}}))
            (out / f"on_{split}.txt").write_text(f"seed {seed}\n")


def _select(run_script, root: Path):
    return run_script("general_seeds.py", "select", "--training-dir", root / "training",
                      "--metrics-dir", root / "metrics")


def test_select_ships_the_median_dev_seed_and_report_gives_mean_and_sd(run_script, tmp_path):
    for seed, dev, test in ((0, 0.80, 0.70), (1, 0.90, 0.60), (2, 0.85, 0.80)):
        _seed(tmp_path, seed, dev, test)
    proc = _select(run_script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "training" / "model-best" / "meta.json").read_text())["name"] == "seed2"
    assert (tmp_path / "metrics" / "on_sfu.txt").read_text() == "seed 2\n"
    selected = json.loads((tmp_path / "metrics" / "selected.json").read_text())
    assert selected["seed"] == 2 and selected["dev"] == {"0": 0.8, "1": 0.9, "2": 0.85}
    # test scores take no part: seed 2 has the best test score, seed 0 would be picked by a low one
    proc = run_script("general_report.py", "--general-dir", tmp_path / "metrics", "--cross-dir",
                      tmp_path / "none", "--out-dir", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "out" / "general.json").read_text())
    seeds = report["cdsco"]["general_seeds"]
    assert seeds["seeds"] == [0, 1, 2]
    assert abs(seeds["mean"]["nis_tok_f"] - 0.7) < 1e-9 and abs(seeds["sd"]["nis_tok_f"] - 0.1) < 1e-9
    assert report["selected"]["seed"] == 2 and report["cdsco"]["general"]["scores"]["nis_tok_f"] == 0.8
    text = (tmp_path / "out" / "general.md").read_text()
    assert "| CD-SCO | 3 | 70.00 ± 10.00 |" in text and "ships seed 2" in text


def test_select_with_an_even_count_takes_the_lower_middle_and_one_seed_is_itself(run_script, tmp_path):
    _seed(tmp_path, 0, 0.80, 0.7)
    assert _select(run_script, tmp_path).returncode == 0
    assert json.loads((tmp_path / "metrics" / "selected.json").read_text())["seed"] == 0
    _seed(tmp_path, 5, 0.90, 0.7)
    assert _select(run_script, tmp_path).returncode == 0  # model-best is replaced
    assert json.loads((tmp_path / "metrics" / "selected.json").read_text())["seed"] == 0


def test_select_refuses_without_seeds_or_evaluation(run_script, tmp_path):
    proc = _select(run_script, tmp_path)
    assert proc.returncode == 1 and "no trained seed" in proc.stderr
    _seed(tmp_path, 3, 0.8, 0.7, evaluated=False)
    proc = _select(run_script, tmp_path)
    assert proc.returncode == 1 and "not evaluated" in proc.stderr
    assert not (tmp_path / "training" / "model-best").exists()


def test_a_training_still_running_is_not_selected(run_script, tmp_path):
    _seed(tmp_path, 0, 0.80, 0.70)
    _seed(tmp_path, 1, 0.95, 0.90, finished=False)  # model-best and model-last written, still training
    _seed(tmp_path, 2, 0.90, 0.80, finished=False)
    assert _select(run_script, tmp_path).returncode == 0
    assert json.loads((tmp_path / "metrics" / "selected.json").read_text())["dev"] == {"0": 0.8}


def test_report_keeps_the_earlier_rows_it_cannot_recompute(run_script, tmp_path):
    _seed(tmp_path, 0, 0.80, 0.70)
    assert _select(run_script, tmp_path).returncode == 0
    out = tmp_path / "out"
    out.mkdir()
    earlier = {"cdsco": {"general": {"scores": {"nis_tok_f": 0.1}}, "fast": {"scores": {
        k: 0.5 for k in ("cues_b_f", "scm_b_f", "st_f", "nis_tok_f", "nis_ex_f")}}}}
    (out / "general.json").write_text(json.dumps(earlier))
    proc = run_script("general_report.py", "--general-dir", tmp_path / "metrics", "--cross-dir",
                      tmp_path / "none", "--out-dir", out, "--keep")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "general.json").read_text())
    assert report["cdsco"]["fast"]["run"] == "earlier" and report["cdsco"]["general"]["scores"]["nis_tok_f"] == 0.7
    assert "fast (en_negation_fast, CNN) (earlier run)" in (out / "general.md").read_text()


def test_report_of_the_fast_model_alone_keeps_the_general_rows(run_script, tmp_path):
    """--general-dir without outputs (the fast model re-evaluated alone): the general
    model's rows, its seeds' statistics and the shipped seed are kept, first and marked."""
    out = tmp_path / "out"
    out.mkdir()
    names = ("cues_b_f", "scm_b_f", "st_f", "nis_tok_f", "nis_ex_f")
    seeds = {"seeds": [0, 1], "mean": {k: 0.8 for k in names}, "sd": {k: 0.01 for k in names}}
    earlier = {"selected": {"seed": 1, "rule": "median dev score", "dev": {"0": 0.7, "1": 0.8}},
               "cdsco": {"general": {"scores": {k: 0.6 for k in names}}, "general_seeds": seeds}}
    (out / "general.json").write_text(json.dumps(earlier))
    (tmp_path / "empty").mkdir()
    proc = run_script("general_report.py", "--general-dir", tmp_path / "empty", "--cross-dir", tmp_path / "none",
                      "--out-dir", out, "--keep")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "general.json").read_text())
    assert list(report["cdsco"])[:2] == ["general", "general_seeds"]
    assert report["cdsco"]["general"]["run"] == "earlier" and report["cdsco"]["general_seeds"] == seeds
    assert report["selected"]["seed"] == 1
    assert "| CD-SCO | general (earlier run) | 60.00 |" in (out / "general.md").read_text()


def test_evaluate_one_model_writes_each_split_into_the_metrics_folder(run_script, tmp_path, monkeypatch):
    """`evaluate --model DIR` (a teacher, not a seed): evaluate_model.py once per split in the
    split's convention, into METRICS_DIR/on_SPLIT.*; outputs newer than the model are kept."""
    seeds = load_module(REPO / "scripts" / "general_seeds.py", "general_seeds_model")
    model = tmp_path / "teacher" / "model-best"
    model.mkdir(parents=True)
    (model / "meta.json").write_text("{}")
    calls = []

    def fake_call(cmd):
        calls.append(cmd)
        Path(cmd[5]).write_text("{}")  # the scores file, as evaluate_model.py writes it
        return 0

    monkeypatch.setattr(seeds.subprocess, "call", fake_call)
    assert seeds.main(["evaluate", "--model", str(model), "--metrics-dir", str(tmp_path / "m")]) == 0
    assert [(c[2], c[3], c[5], c[-1]) for c in calls] == [
        (str(model), gold, str(tmp_path / "m" / f"on_{split}.json"), convention)
        for split, (gold, convention) in seeds.TEST_SPLITS.items()]
    assert seeds.main(["evaluate", "--model", str(model), "--metrics-dir", str(tmp_path / "m")]) == 0
    assert len(calls) == len(seeds.TEST_SPLITS)  # already evaluated: not run again


def test_evaluate_on_gold_cues_writes_the_goldcues_files_of_each_finished_seed(tmp_path, monkeypatch):
    """`evaluate --gold-cues`: evaluate_model.py --gold-cues per finished seed and split into
    seedN/on_SPLIT_goldcues.*, beside the end-to-end files (kept as they are); a seed still
    training is not evaluated; outputs newer than the model are kept."""
    seeds = load_module(REPO / "scripts" / "general_seeds.py", "general_seeds_gold_cues")
    _seed(tmp_path, 0, 0.8, 0.7)
    _seed(tmp_path, 1, 0.8, 0.7, finished=False)
    calls = []

    def fake_call(cmd):
        calls.append(cmd)
        Path(cmd[5]).write_text("{}")
        return 0

    monkeypatch.setattr(seeds.subprocess, "call", fake_call)
    args = ["evaluate", "--gold-cues", "--training-dir", str(tmp_path / "training"), "--metrics-dir",
            str(tmp_path / "metrics"), "--split", "bioscope=corpus/bioscope/test.spacy:bioscope"]
    assert seeds.main(args) == 0
    out = tmp_path / "metrics" / "seed0"
    best = tmp_path / "training" / "seed0" / "model-best"
    assert [c[2:] for c in calls] == [[str(best), "corpus/bioscope/test.spacy", str(out / "on_bioscope_goldcues.txt"),
                                      str(out / "on_bioscope_goldcues.json"), "--tag-punct", "--convention", "bioscope",
                                      "--gold-cues"]]
    assert json.loads((out / "on_bioscope.json").read_text())["scores"]["neg_st_f"] == 0.7  # end to end kept
    assert seeds.main(args) == 0 and len(calls) == 1
    with pytest.raises(SystemExit):
        seeds.main(["select", "--gold-cues"])


def test_evaluate_model_refuses_a_folder_without_a_model(run_script, tmp_path):
    proc = run_script("general_seeds.py", "evaluate", "--model", tmp_path, "--metrics-dir", tmp_path / "m")
    assert proc.returncode == 1 and "not a trained model" in proc.stderr
    assert not (tmp_path / "m").exists()
    proc = run_script("general_seeds.py", "select", "--model", tmp_path)
    assert proc.returncode == 2 and "--model goes with evaluate" in proc.stderr


def test_select_by_an_evaluated_dev_split(run_script, tmp_path):
    """--dev-split ranks the seeds by their evaluated dev scores (the mean of --dev-metric),
    not by the score spaCy recorded in training."""
    for seed, recorded, dev in ((0, 0.95, (0.70, 0.60)), (1, 0.50, (0.80, 0.80)), (2, 0.60, (0.90, 0.90))):
        _seed(tmp_path, seed, recorded, 0.7)
        (tmp_path / "metrics" / f"seed{seed}" / "on_dev.json").write_text(
            json.dumps({"scores": {"neg_nis_tok_f": dev[0], "spec_nis_tok_f": dev[1]}}))
        (tmp_path / "metrics" / f"seed{seed}" / "on_dev.txt").write_text("dev\n")
    proc = run_script("general_seeds.py", "select", "--training-dir", tmp_path / "training", "--metrics-dir",
                      tmp_path / "metrics", "--split", "cdsco=x.spacy", "--split", "dev=d.spacy",
                      "--dev-split", "dev", "--dev-metric", "neg_nis_tok_f", "spec_nis_tok_f")
    assert proc.returncode == 0, proc.stderr
    selected = json.loads((tmp_path / "metrics" / "selected.json").read_text())
    assert selected["seed"] == 1 and abs(selected["dev"]["0"] - 0.65) < 1e-9
    assert "spec_nis_tok_f" in selected["rule"]
    proc = run_script("general_seeds.py", "select", "--training-dir", tmp_path / "training", "--metrics-dir",
                      tmp_path / "metrics", "--split", "cdsco=x.spacy", "--dev-split", "dev")
    assert proc.returncode == 2 and "--dev-split dev" in proc.stderr


def test_a_seed_trained_before_the_finished_file_counts_by_its_recorded_training(run_script, tmp_path):
    """A seed trained before training-finished.json existed is finished when run_meta.json
    records its training step (timed.py records a step only when it returned 0)."""
    _seed(tmp_path, 0, 0.80, 0.70, finished=False)
    _seed(tmp_path, 1, 0.90, 0.80, finished=False)
    (tmp_path / "metrics" / "run_meta.json").write_text(json.dumps({"steps_seconds": {"train_training_seed0": 1.0}}))
    assert _select(run_script, tmp_path).returncode == 0
    assert json.loads((tmp_path / "metrics" / "selected.json").read_text())["dev"] == {"0": 0.8}

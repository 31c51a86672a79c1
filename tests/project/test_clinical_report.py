"""scripts/clinical_report.py: the clinical and general models on BioScope clinical over seeds
(mean ± sd, each seed's paired interval against the best rule tool, the goals)."""
import json
from pathlib import Path

import numpy
import pytest

MEASURES = ("neg_cue_b_f", "neg_scm_b_f", "neg_st_f", "neg_nis_tok_f", "neg_nis_ex_f")


def _scores(path: Path, value: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"scores": {k: value for k in MEASURES}}))


def _vs_rules(root: Path, seed: int, clinical_f: float, diff_low: float) -> None:
    rule = {"p": 0.9, "r": 0.8, "f": 0.85, "ci_low": 0.8, "ci_high": 0.9, "words_per_second": 500000.0}
    model = {"p": 0.9, "r": 0.9, "f": clinical_f, "ci_low": 0.85, "ci_high": 0.95, "words_per_second": 30000.0}
    vs = {"negspacy_en": {"diff": clinical_f - 0.85, "ci_low": diff_low, "ci_high": 0.2}}
    split = {"negspacy_en": rule, "negspacy_en_clinical": {**rule, "f": 0.80},
             "clinical": model, "general": {**model, "f": 0.86}}
    split["recommended"] = {**model, "model": "clinical", "vs": vs}
    split["general"] = {**split["general"], "model": "general",
                        "vs": {"negspacy_en": {"diff": 0.01, "ci_low": -0.02, "ci_high": 0.04}}}
    out = root / "metrics" / "clinical" / "vs_rules" / f"seed{seed}" / "vs_rules.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"bioscope_clinical": split}))


def test_report_gives_mean_sd_per_seed_intervals_and_goals(run_script, tmp_path):
    for seed, value in ((0, 0.90), (1, 0.92), (2, 0.94)):
        _scores(tmp_path / "metrics" / "clinical" / f"seed{seed}" / "on_bioscope_clinical.json", value)
        _scores(tmp_path / "metrics" / "general" / f"seed{seed}" / "on_bioscope_clinical.json", value - 0.1)
        _vs_rules(tmp_path, seed, 0.85 + 0.06 + 0.01 * seed, 0.01 if seed else -0.01)
    (tmp_path / "metrics" / "clinical" / "selected.json").write_text(json.dumps({"seed": 1}))
    proc = run_script("clinical_report.py", "report", "--root", tmp_path, "--out-dir", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "out" / "clinical.json").read_text())
    nis = report["starsem"]["clinical"]["bioscope_clinical"]["neg_nis_tok_f"]
    assert abs(nis["mean"] - 92.0) < 1e-9 and abs(nis["sd"] - 2.0) < 1e-9
    assert report["best_rule"] == "negspacy_en" and report["shipped"] == {"clinical": 1}
    vs = report["word"]["clinical"]["vs_best_rule"]
    assert abs(vs["mean"] - 7.0) < 1e-9 and [r["seed"] for r in vs["runs"]] == [0, 1, 2]
    text = (tmp_path / "out" / "clinical.md").read_text()
    assert "| clinical | BioScope clinical | 3 | 92.00 ± 2.00 |" in text
    # without the per-sentence rows there is no pooled interval: the margin goal is not met
    assert "no pooled interval (run bench again); each seed's own CI excludes 0 in 2 of 3: not met" in text
    assert "- Clinical model NIS_tok ≥ 90: 92.00 ± 2.00: met" in text
    assert "development only" in text


def _rows(root: Path, seed: int, model_rows, tool_rows) -> None:
    out = root / "metrics" / "clinical" / "vs_rules" / f"seed{seed}" / "vs_rules_rows.json"
    out.write_text(json.dumps({"bioscope_clinical": {"clinical": model_rows, "general": model_rows,
                                                     "negspacy_en": tool_rows}}))


@pytest.mark.parametrize("tool_fp,met", [(1, True), (0, False)])
def test_margin_goal_uses_the_pooled_interval(run_script, tmp_path, tool_fp, met):
    for seed in (0, 1, 2):
        _scores(tmp_path / "metrics" / "clinical" / f"seed{seed}" / "on_bioscope_clinical.json", 0.92)
        _vs_rules(tmp_path, seed, 0.93, -0.01)
        # 40 sentences: the model always right; the tool with a false positive in each
        # (clearly worse) or always right as well (no difference)
        _rows(tmp_path, seed, [[2, 0, 0]] * 40, [[2, tool_fp, 0]] * 40)
    proc = run_script("clinical_report.py", "report", "--root", tmp_path, "--out-dir", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    pooled = json.loads((tmp_path / "out" / "clinical.json").read_text())["word"]["clinical"]["vs_best_rule"]["pooled"]
    text = (tmp_path / "out" / "clinical.md").read_text()
    # each seed's own interval includes 0 (ci_low -0.01), the pooled one decides
    assert ("each seed's own CI excludes 0 in 0 of 3: met" in text) is met
    assert (pooled["ci_low"] > 0) is met


def test_pooled_difference_of_one_seed_is_the_paired_bootstrap():
    from scripts.clinical_report import pooled_difference
    from spacy_negation.metrics.bootstrap import paired_bootstrap

    rng = numpy.random.default_rng(1)
    model = rng.integers(0, 3, size=(60, 3)).tolist()
    tool = rng.integers(0, 3, size=(60, 3)).tolist()
    d = paired_bootstrap(model, tool)
    pooled = pooled_difference([model], tool)
    assert pooled == pytest.approx({"diff": 100 * d.value, "ci_low": 100 * d.low, "ci_high": 100 * d.high})
    # two identical seeds: the same as one
    assert pooled_difference([model, model], tool) == pytest.approx(pooled)


def test_report_without_metrics_fails(run_script, tmp_path):
    proc = run_script("clinical_report.py", "report", "--root", tmp_path, "--out-dir", tmp_path / "out")
    assert proc.returncode == 1 and "no clinical or general seed" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_bench_of_one_model_benches_only_its_seeds(tmp_path, monkeypatch):
    """`bench --models clinical` (the clinical model retrained alone): its packaged copy per
    seed and a bench_vs_rules run without the general model; a seed not trained stops it."""
    from util import REPO, load_module

    report = load_module(REPO / "scripts" / "clinical_report.py", "clinical_report_bench")
    monkeypatch.setattr(report, "REPO", tmp_path)
    (tmp_path / "training" / "clinical" / "seed0" / "model-best").mkdir(parents=True)
    (tmp_path / "training" / "clinical" / "seed0" / "model-best" / "meta.json").write_text("{}")
    calls = []
    monkeypatch.setattr(report, "_run", calls.append)
    assert report.bench([0], "0.1.0", "sfu", None, models=["clinical"]) == 0
    card, vs_rules = calls
    assert "--domain" in card and card[card.index("--domain") + 1] == "clinical"
    assert "bench_vs_rules.py" in vs_rules[1] and "--general" not in vs_rules
    assert [vs_rules[i + 1] for i, a in enumerate(vs_rules) if a == "--model"] == [
        f"clinical={tmp_path / 'training' / 'clinical' / 'seed0' / 'model-package'}"]
    assert vs_rules[vs_rules.index("--recommend") + 1] == "bioscope_clinical=clinical"
    calls.clear()
    assert report.bench([0], "0.1.0", "sfu", None) == 1 and calls == [calls[0]]  # the general seed 0 is missing


def _clinical_only(root: Path) -> None:
    """Three clinical seeds measured, no general metrics (the clinical model retrained alone)."""
    for seed in (0, 1, 2):
        _scores(root / "metrics" / "clinical" / f"seed{seed}" / "on_bioscope_clinical.json", 0.92)
        _vs_rules(root, seed, 0.93, 0.01)
        split = json.loads((root / "metrics" / "clinical" / "vs_rules" / f"seed{seed}" / "vs_rules.json").read_text())
        del split["bioscope_clinical"]["general"]
        (root / "metrics" / "clinical" / "vs_rules" / f"seed{seed}" / "vs_rules.json").write_text(json.dumps(split))


def test_keep_carries_a_model_over_from_the_previous_report(run_script, tmp_path):
    previous = {"best_rule": "negspacy_en", "shipped": {"general": 2},
                "starsem": {"general": {"bioscope_clinical": {"seeds": [0, 1, 2], **{
                    k: {"mean": 91.0, "sd": 1.0, "runs": [90.0, 91.0, 92.0]} for k in MEASURES}}}},
                "word": {"general": {"seeds": [0, 1, 2], "f": {"mean": 88.0, "sd": 1.0},
                                     "vs_best_rule": {"mean": 3.0, "sd": 1.0, "runs": [
                                         {"seed": s, "diff": 3.0, "ci_low": -1.0, "ci_high": 7.0} for s in (0, 1, 2)]}}}}
    (tmp_path / "previous.json").write_text(json.dumps(previous))
    _clinical_only(tmp_path)
    out = tmp_path / "out"
    proc = run_script("clinical_report.py", "report", "--root", tmp_path, "--out-dir", out,
                      "--keep", "general", "--previous", tmp_path / "previous.json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "clinical.json").read_text())
    assert report["kept"] == ["general"] and report["word"]["general"] == previous["word"]["general"]
    assert report["starsem"]["general"] == previous["starsem"]["general"] and report["shipped"] == {"general": 2}
    text = (out / "clinical.md").read_text()
    assert "carried over from the previous report unchanged: the general model's rows" in text
    assert "| general | 3 | 88.00 ± 1.00 |" in text and "General model at least matches the best rule tool: +3.00" in text
    # without --keep the general model is simply absent
    proc = run_script("clinical_report.py", "report", "--root", tmp_path, "--out-dir", tmp_path / "plain")
    assert "general" not in json.loads((tmp_path / "plain" / "clinical.json").read_text())["word"]


@pytest.mark.parametrize("change,message", [
    ({"best_rule": "medspacy_context"}, "best rule tool (medspacy_context) is not this run's (negspacy_en)"),
    ({"word": {}, "starsem": {}}, "the previous report has no rows of general"),
])
def test_keep_refuses_rows_it_cannot_carry_honestly(run_script, tmp_path, change, message):
    previous = {"best_rule": "negspacy_en", "starsem": {}, "word": {"general": {"seeds": [0], "f": {"mean": 1.0, "sd": 0.0},
                                                                               "vs_best_rule": {"mean": 0.0, "sd": 0.0, "runs": []}}}}
    (tmp_path / "previous.json").write_text(json.dumps({**previous, **change}))
    _clinical_only(tmp_path)
    proc = run_script("clinical_report.py", "report", "--root", tmp_path, "--out-dir", tmp_path / "out",
                      "--keep", "general", "--previous", tmp_path / "previous.json")
    assert proc.returncode == 1 and message in proc.stderr
    assert not (tmp_path / "out" / "clinical.json").exists()


def test_keep_refuses_a_model_this_run_measured(run_script, tmp_path):
    _clinical_only(tmp_path)
    (tmp_path / "previous.json").write_text(json.dumps({"best_rule": "negspacy_en", "word": {"clinical": {}}}))
    proc = run_script("clinical_report.py", "report", "--root", tmp_path, "--out-dir", tmp_path / "out",
                      "--keep", "clinical", "--previous", tmp_path / "previous.json")
    assert proc.returncode == 1 and "this run measured clinical itself" in proc.stderr


def test_general_seeds_packaged_as_the_project_packages_the_default():
    """The general model's seeds are packaged with the prefilter window of project.yml's
    package-general (vars.general_prefilter_window)."""
    import srsly

    from util import REPO, load_module

    report = load_module(REPO / "scripts" / "clinical_report.py", "clinical_report")
    project = srsly.read_yaml(REPO / "project.yml")
    window = project["vars"]["general_prefilter_window"].split()
    assert report.MODELS["general"][3] == ["--prefilter", "--prefilter-window", *window]
    (package,) = [c for c in project["commands"] if c["name"] == "package-general"]
    assert "--prefilter --prefilter-window ${vars.general_prefilter_window}" in package["script"][0]

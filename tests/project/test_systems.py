"""The systems workflow: scripts/systems_run.py (the grid, --dry-run, resuming)
and scripts/systems_report.py (results/systems.{json,md}, the run summaries, the choice on
dev, the significance tests), on tiny synthetic run folders: hand-written scores JSONs and
*SEM system files of the four-sentence case of test_metrics_compare. No training."""
import json
import shutil
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest

from spacy_negation.corpora.starsem_docs import read_starsem_docs
from spacy_negation.metrics.compare import count_table
from spacy_negation.metrics.evaluate import evaluate_files, to_json
from spacy_negation.metrics.starsem.io import iter_aligned

from systems_grid import MEASURES, train_config
from systems_inputs import cue_type_counts, dense_counts, read_pairs, read_summary, scope_outcome_counts, sparse_counts
from systems_stats import build_report, cross_domain_means
from starsem_systems import GOLD, SYS_A, SYS_B, starsem_text
from test_report import write_docbin

RunScript = Any
#: The flat scorer keys of the report's measures.
FLAT = {key: src for key, (src, _) in MEASURES.items()}


def scores_json(path: Path, values: Dict[str, float], wps: Optional[float] = 100.0) -> None:
    """A scores JSON as evaluate_model.py writes it (only what the report reads)."""
    doc: Dict[str, Any] = {"scores": {FLAT[k]: v for k, v in values.items()}}
    if wps is not None:
        doc["speed"] = {"words": 10, "seconds": 10 / wps, "words_per_second": wps}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")


def same(value: float) -> Dict[str, float]:
    return {k: value for k in MEASURES}


def make_run(root: Path, corpus: str, system: str, seed: int, test: Dict[str, float],
             dev: Dict[str, float], system_file: Sequence[Any], extra: Sequence[str] = (),
             seconds: Optional[str] = "60") -> Path:
    """A finished run: dev/test JSON, the test system file and the named extra
    evaluations (e.g. 'cross_bioscope', 'gold_cues_test') with the test scores."""
    folder = root / corpus / system / f"seed{seed}"
    scores_json(folder / "dev.json", dev)
    scores_json(folder / "test.json", test)
    (folder / "test.txt").write_text(starsem_text(list(system_file)), encoding="utf-8")
    for name in extra:
        scores_json(folder / f"{name}.json", test)
    if seconds is not None:
        (folder / "train_seconds").write_text(seconds + "\n", encoding="utf-8")
    return folder


def make_grid(root: Path) -> Path:
    """CD-SCO only (a partial grid): BiLSTM-Tagger over three seeds, NegBERT over one (best
    on dev), DP-nested over two; Punct-BL once."""
    runs = root / "training" / "systems"
    (runs / "gold").mkdir(parents=True)
    (runs / "gold" / "cdsco_test.txt").write_text(starsem_text(GOLD), encoding="utf-8")
    for seed, value, sysfile in ((0, 0.8, SYS_A), (1, 0.9, SYS_B), (2, 1.0, SYS_A)):
        test = {**same(value), "nis_ex_f": value - 0.3}
        make_run(runs, "cdsco", "bilstm_tagger", seed, test, same(0.9), sysfile,
                 ("cross_bioscope", "cross_sfu", "gold_cues_test"), seconds=str(600 * (seed + 1)))
    make_run(runs, "cdsco", "negbert", 0, same(0.7), same(0.95), SYS_A, ("cross_sfu",))
    for seed in (0, 1):
        make_run(runs, "cdsco", "dp_nested", seed, same(0.6), same(0.5), SYS_B)
    make_run(runs, "cdsco", "punct_baseline", 0, same(0.5), same(0.5), GOLD, seconds=None)
    return runs


def report(run_script: RunScript, root: Path, runs: Optional[Path] = None, *more: str) -> Any:
    return run_script("systems_report.py", "--runs-dir", runs or root / "training" / "systems",
                      "--summaries-dir", root / "results" / "systems" / "runs",
                      "--out-dir", root / "results", "--samples", "200", "--ar-samples", "200", *more)


@pytest.fixture(scope="module")
def built(tmp_path_factory: Any, run_script: RunScript) -> Dict[str, Any]:
    root = tmp_path_factory.mktemp("systems")
    runs = make_grid(root)
    proc = report(run_script, root)
    assert proc.returncode == 0, proc.stderr
    out = root / "results"
    return {"root": root, "runs": runs, "doc": json.loads((out / "systems.json").read_text(encoding="utf-8")),
            "md": (out / "systems.md").read_text(encoding="utf-8")}


def test_report_shape(built: Dict[str, Any]) -> None:
    doc = built["doc"]
    assert set(doc) == {"cdsco", "bioscope", "sfu", "cross_domain", "published", "scope_only", "dev",
                        "speed", "train_seconds", "configs", "cue_types", "scope_outcomes", "significance", "goal",
                        "backbones", "cross_domain_mean"}
    assert doc["backbones"] == {}  # no system on another backbone
    assert set(doc["cdsco"]) == {"punct_baseline", "bilstm_tagger", "negbert", "dp_nested"}
    for cell in doc["cdsco"].values():
        assert set(cell) == {"seeds", "mean", "sd"}
        assert set(cell["mean"]) == set(cell["sd"]) == {"cues_b_f", "scm_b_f", "st_f", "nis_tok_f", "nis_ex_f"}
    assert doc["bioscope"] == {} and doc["sfu"] == {}  # a partial grid
    assert set(doc["cross_domain"]) == {"cdsco->bioscope", "cdsco->sfu"}
    assert doc["cross_domain"]["cdsco->bioscope"]["bilstm_tagger"]["seeds"] == [0, 1, 2]
    assert doc["cross_domain"]["cdsco->sfu"]["negbert"]["seeds"] == [0]
    assert set(doc["scope_only"]["cdsco"]) == {"bilstm_tagger"}
    assert doc["configs"]["cdsco"]["negbert"].startswith("configs/negbert.cfg ")
    # the published rows of Sineva et al. 2021, Table 8, as fractions
    pub = doc["published"]
    assert pub["in_domain"]["cdsco"]["bilstm_tagger"]["nis_tok_f"] == pytest.approx(0.882)
    assert pub["in_domain"]["sfu"]["punct_baseline"]["cues_b_f"] == pytest.approx(1.0)
    assert pub["cross_domain"]["bioscope->cdsco"]["negbert"]["st_f"] == pytest.approx(0.552)
    assert "Sineva" in pub["citation"]
    # no system has all six cross-domain pairs in this partial grid; the published ones do
    assert doc["cross_domain_mean"] == {}
    assert pub["cross_domain_mean"]["bilstm_tagger"]["nis_tok_f"] == pytest.approx(0.545, abs=5e-4)
    assert "Mean over the six pairs" not in built["md"]


def test_mean_and_sd_hand_computed(built: Dict[str, Any]) -> None:
    doc = built["doc"]
    bilstm = doc["cdsco"]["bilstm_tagger"]
    assert bilstm["seeds"] == [0, 1, 2]
    # 0.8, 0.9, 1.0: mean 0.9, sample sd sqrt((0.01 + 0 + 0.01) / 2) = 0.1
    assert bilstm["mean"]["nis_tok_f"] == pytest.approx(0.9)
    assert bilstm["sd"]["nis_tok_f"] == pytest.approx(0.1)
    assert bilstm["mean"]["nis_ex_f"] == pytest.approx(0.6)
    assert bilstm["sd"]["nis_ex_f"] == pytest.approx(0.1)
    negbert = doc["cdsco"]["negbert"]
    assert negbert["seeds"] == [0] and negbert["mean"]["st_f"] == 0.7 and negbert["sd"]["st_f"] is None
    assert doc["train_seconds"]["cdsco"]["bilstm_tagger"] == pytest.approx(1200.0)  # 600, 1200, 1800
    assert doc["train_seconds"]["cdsco"]["punct_baseline"] is None
    assert doc["speed"]["cdsco"]["negbert"] == pytest.approx(100.0)
    md = built["md"]
    assert "| BiLSTM-Tagger | 3 | 90.00 ± 10.00 | 90.00 ± 10.00 | 90.00 ± 10.00 | 90.00 ± 10.00 | 60.00 ± 10.00 |" in md
    assert "| NegBERT | 1 | 70.00 | 70.00 | 70.00 | 70.00 | 70.00 | 95.00 | 100 | 1.0 |" in md
    assert "| DP-direct | - | - | - | - | - | - | - | - | - |" in md
    assert "| BiLSTM-Tagger (published) |  | 92.3 | 70.0 | 88.0 | 88.2 | - |" in md


def test_best_system_is_chosen_on_dev(built: Dict[str, Any]) -> None:
    """NegBERT has the best dev NIS_tok (0.95) and the worst trained test scores: it is
    the best system all the same, and the others are compared with it."""
    sig = built["doc"]["significance"]["cdsco"]
    assert sig["best"] == "negbert" and sig["dev_nis_tok_f"] == pytest.approx(0.95)
    comparisons = sig["comparisons"]
    assert {c["a"] for c in comparisons} == {"negbert"}
    assert [(c["metric"], c["b"]) for c in comparisons] == [
        (m, s) for _, m in MEASURES.values() for s in ("bilstm_tagger", "dp_nested")]
    assert all(c["ci_low"] <= c["diff"] <= c["ci_high"] and 0 < c["p_bootstrap"] <= 1 for c in comparisons)
    assert "Best on dev: **NegBERT**" in built["md"]


def test_best_system_against_the_best_published_numbers(built: Dict[str, Any]) -> None:
    """Sineva et al. (2021) on CD-SCO test: the best trained system per column (Cues-B 93.4,
    DP-nested-synt; SCM-B 70.1, NegBERT; Scope tokens 88.0 and NIS_tok 88.2, BiLSTM-Tagger)
    against our best system on dev (NegBERT, one seed, test scores 0.7 in its JSON)."""
    goal = built["doc"]["goal"]["cdsco"]
    assert goal["system"] == "negbert" and goal["seeds"] == [0]
    rows = goal["measures"]
    assert set(rows) == {"cues_b_f", "scm_b_f", "st_f", "nis_tok_f"}  # the paper prints no NIS_ex
    assert {k: r["published"] for k, r in rows.items()} == pytest.approx(
        {"cues_b_f": 0.934, "scm_b_f": 0.701, "st_f": 0.88, "nis_tok_f": 0.882})
    assert {k: r["published_system"] for k, r in rows.items()} == {
        "cues_b_f": "dp_nested_synt", "scm_b_f": "negbert", "st_f": "bilstm_tagger", "nis_tok_f": "bilstm_tagger"}
    nis = rows["nis_tok_f"]
    assert nis["mean"] == 0.7 and nis["diff"] == pytest.approx(0.7 - 0.882)
    # the interval is that of the system file's counts: SYS_A has NIS_tok 2/3
    assert nis["ci"]["value"] == pytest.approx(2 / 3) and nis["ci"]["low"] <= 2 / 3 <= nis["ci"]["high"]
    assert "| CD-SCO | NIS_tok F1 | 88.2 (BiLSTM-Tagger) | 70.00 (NegBERT, 1 seed(s)) | -18.20 |" in built["md"]


def test_significance_pools_the_seeds_counts(built: Dict[str, Any], tmp_path: Path) -> None:
    """A system's test value in the tests is that of its seeds' counts summed: the score of
    the three system files one after the other against the gold file three times."""
    gold = tmp_path / "gold.txt"
    system = tmp_path / "system.txt"
    gold.write_text("\n".join([starsem_text(GOLD)] * 3), encoding="utf-8")
    system.write_text("\n".join(starsem_text(s) for s in (SYS_A, SYS_B, SYS_A)), encoding="utf-8")
    expected = to_json(evaluate_files(gold, system, ("starsem", "nis")))
    by_metric = {c["metric"]: c for c in built["doc"]["significance"]["cdsco"]["comparisons"]
                 if c["b"] == "bilstm_tagger"}
    assert by_metric["nis.nis_tok.f"]["value_b"] == pytest.approx(expected["nis"]["nis_tok"]["f"])
    assert by_metric["starsem.scopes_cue_match_b.f"]["value_b"] == pytest.approx(
        expected["starsem"]["scopes_cue_match_b"]["f"])
    # NegBERT's one seed is SYS_A: NIS_tok 2/3 (test_cli_compare's hand-computed case)
    assert by_metric["nis.nis_tok.f"]["value_a"] == pytest.approx(2 / 3)


def test_summaries_are_written_and_rebuild_the_report(built: Dict[str, Any], tmp_path: Path,
                                                      run_script: RunScript) -> None:
    root = tmp_path / "copy"
    shutil.copytree(built["root"] / "results", root / "results")
    names = sorted(p.name for p in (root / "results" / "systems" / "runs").iterdir())
    assert names == ["cdsco__bilstm_tagger__seed0.json", "cdsco__bilstm_tagger__seed1.json",
                     "cdsco__bilstm_tagger__seed2.json", "cdsco__dp_nested__seed0.json",
                     "cdsco__dp_nested__seed1.json", "cdsco__negbert__seed0.json",
                     "cdsco__punct_baseline__seed0.json"]
    summary = read_summary(root / "results" / "systems" / "runs" / "cdsco__bilstm_tagger__seed2.json")
    assert summary["scores"]["test"]["nis_tok_f"] == 1.0 and summary["train_seconds"] == 1800.0
    assert set(summary["scores"]) == {"dev", "test", "cross_bioscope", "cross_sfu", "gold_cues_test"}
    assert summary["config"] == " ".join([train_config("cdsco", "bilstm_tagger")[0]]
                                         + train_config("cdsco", "bilstm_tagger")[1])
    before = {name: (root / "results" / name).read_text(encoding="utf-8") for name in ("systems.json", "systems.md")}
    for name in before:
        (root / "results" / name).unlink()
    proc = report(run_script, root, tmp_path / "no-training-dir")
    assert proc.returncode == 0, proc.stderr
    assert "0 runs read, 7 from summaries" in proc.stderr
    for name, text in before.items():
        assert (root / "results" / name).read_text(encoding="utf-8") == text


def test_folders_outside_the_grid_are_named(built: Dict[str, Any], tmp_path: Path,
                                             run_script: RunScript) -> None:
    root = tmp_path / "copy"
    shutil.copytree(built["root"], root)
    (root / "training" / "systems" / "cdsco" / "ensemble" / "seed0").mkdir(parents=True)
    (root / "training" / "systems" / "neges").mkdir()
    proc = report(run_script, root)
    assert proc.returncode == 0, proc.stderr
    assert "cdsco/ensemble is not a system of the grid" in proc.stderr
    assert "systems/neges is not a corpus of the grid" in proc.stderr
    assert "systems/gold" not in proc.stderr


def test_a_run_folder_overrides_its_summary_and_others_are_kept(built: Dict[str, Any], tmp_path: Path,
                                                                run_script: RunScript) -> None:
    root = tmp_path / "copy"
    shutil.copytree(built["root"], root)
    runs = root / "training" / "systems"
    shutil.rmtree(runs / "cdsco" / "dp_nested")  # kept from its summaries
    make_run(runs, "cdsco", "negbert", 0, same(0.75), same(0.95), SYS_A)  # a new result
    proc = report(run_script, root)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((root / "results" / "systems.json").read_text(encoding="utf-8"))
    assert doc["cdsco"]["negbert"]["mean"]["nis_tok_f"] == 0.75
    assert doc["cdsco"]["dp_nested"]["seeds"] == [0, 1]


@pytest.fixture(scope="module")
def with_backbone(built: Dict[str, Any], tmp_path_factory: Any, run_script: RunScript) -> Dict[str, Any]:
    """The grid of ``built`` plus NegBERT on MPNet (two seeds, SYS_B: better than NegBERT's
    SYS_A) and BiLSTM-Tagger on MPNet on SFU, where the grid has no BiLSTM-Tagger run."""
    root = tmp_path_factory.mktemp("backbone")
    shutil.copytree(built["root"] / "training", root / "training")
    runs = root / "training" / "systems"
    for seed in (0, 1):
        make_run(runs, "cdsco", "negbert@mpnet", seed, same(0.8 + 0.1 * seed), same(0.97), SYS_B,
                 ("cross_bioscope", "cross_sfu", "gold_cues_test"))
    (runs / "gold" / "sfu_test.txt").write_text(starsem_text(GOLD), encoding="utf-8")
    make_run(runs, "sfu", "bilstm_tagger@mpnet", 0, same(0.6), same(0.6), SYS_A)
    proc = report(run_script, root)
    assert proc.returncode == 0, proc.stderr
    out = root / "results"
    return {"root": root, "doc": json.loads((out / "systems.json").read_text(encoding="utf-8")),
            "md": (out / "systems.md").read_text(encoding="utf-8"), "stderr": proc.stderr}


def test_a_system_on_another_backbone_is_a_row_of_its_own(with_backbone: Dict[str, Any]) -> None:
    doc, md = with_backbone["doc"], with_backbone["md"]
    assert "not a system of the grid" not in with_backbone["stderr"]
    cell = doc["cdsco"]["negbert@mpnet"]
    assert cell["seeds"] == [0, 1] and cell["mean"]["nis_tok_f"] == pytest.approx(0.85)
    assert cell["sd"]["nis_tok_f"] == pytest.approx(0.1 / 2 ** 0.5)
    assert doc["cdsco"]["negbert"]["seeds"] == [0]  # the default backbone's row is unchanged
    assert doc["cross_domain"]["cdsco->sfu"]["negbert@mpnet"]["seeds"] == [0, 1]
    assert doc["scope_only"]["cdsco"]["negbert@mpnet"]["seeds"] == [0, 1]
    # the config of the run: the system's, with every transformer on the backbone
    assert doc["configs"]["cdsco"]["negbert@mpnet"] == (
        doc["configs"]["cdsco"]["negbert"] + " --components.transformer.model.name all-mpnet-base-v2"
        " --components.negation_scope_negbert.model.transformer.name all-mpnet-base-v2")
    assert "| NegBERT@mpnet | 2 | 85.00 ± 7.07 |" in md
    assert "| DP-nested@mpnet |" not in md  # no row for a backbone without runs
    # the best system is chosen among the default backbone's (NegBERT@mpnet's dev is higher)
    assert doc["significance"]["cdsco"]["best"] == "negbert" and doc["goal"]["cdsco"]["system"] == "negbert"
    names = sorted(p.name for p in (with_backbone["root"] / "results" / "systems" / "runs").iterdir())
    assert "cdsco__negbert@mpnet__seed1.json" in names and "sfu__bilstm_tagger@mpnet__seed0.json" in names
    summary = read_summary(with_backbone["root"] / "results" / "systems" / "runs" / "cdsco__negbert@mpnet__seed0.json")
    assert summary["system"] == "negbert@mpnet"


def test_a_system_on_another_backbone_is_tested_against_its_default(with_backbone: Dict[str, Any]) -> None:
    """Paired tests of NegBERT@mpnet (SYS_B twice) against NegBERT (SYS_A): B's value is the
    score of SYS_B, A's that of SYS_A (NIS_tok 2/3)."""
    entry = with_backbone["doc"]["backbones"]["cdsco"]["negbert@mpnet"]
    assert entry["against"] == "negbert" and entry["seeds"] == [0, 1]
    assert [c["metric"] for c in entry["comparisons"]] == [m for _, m in MEASURES.values()]
    assert {c["a"] for c in entry["comparisons"]} == {"negbert"}
    assert {c["b"] for c in entry["comparisons"]} == {"negbert@mpnet"}
    nis = next(c for c in entry["comparisons"] if c["metric"] == "nis.nis_tok.f")
    assert nis["value_a"] == pytest.approx(2 / 3)
    assert nis["ci_low"] <= nis["diff"] <= nis["ci_high"] and 0 < nis["p_bootstrap"] <= 1
    assert entry["measures"]["nis_tok_f"]["mean"] == pytest.approx(0.85)
    assert entry["measures"]["nis_tok_f"]["published"] == pytest.approx(0.882)
    md = with_backbone["md"]
    assert "### CD-SCO: NegBERT@mpnet (2 seed(s)) against NegBERT" in md
    assert "| NIS_tok F1 | 88.2 (BiLSTM-Tagger) | 85.00 | -3.20 |" in md
    # without a run of the default backbone's system there is nothing to test against
    sfu = with_backbone["doc"]["backbones"]["sfu"]["bilstm_tagger@mpnet"]
    assert sfu["comparisons"] == [] and "BiLSTM-Tagger has no run on SFU Review." in md


def test_max_steps_replaces_the_systems_step_count(tmp_path: Path, run_script: RunScript) -> None:
    lines = dry_run(run_script, tmp_path, "--corpora", "cdsco", "--systems", "negbert", "dp_nested", "--seeds", "0",
                    "--max-steps", "1200", "--backbone", "all-mpnet-base-v2")
    trains = [line for line in lines if " -m spacy train " in line]
    (negbert,) = [line for line in trains if "configs/negbert.cfg" in line]
    assert negbert.count("--training.max_steps") == 1 and "--training.max_steps 1200 " in negbert
    (dp_nested,) = [line for line in trains if "configs/dp_nested.cfg" in line]
    assert "--training.max_steps 1200 " in dp_nested  # added where the system sets none
    proc = run_script("systems_run.py", "--dry-run", "--out-dir", "runs", "--max-steps", "0", "--backbone",
                      "all-mpnet-base-v2", cwd=tmp_path)
    assert proc.returncode == 2 and "--max-steps must be at least 1" in proc.stderr
    # the grid's own folders keep each system's settings
    proc = run_script("systems_run.py", "--dry-run", "--out-dir", "runs", "--max-steps", "1200", cwd=tmp_path)
    assert proc.returncode == 2 and "--max-steps, --learn-rate and --set need --backbone" in proc.stderr
    proc = run_script("systems_run.py", "--dry-run", "--out-dir", "runs", "--set",
                      "components.negation_cue.lr_scale=10", cwd=tmp_path)
    assert proc.returncode == 2 and "need --backbone" in proc.stderr
    lines = dry_run(run_script, tmp_path, "--corpora", "cdsco", "--systems", "negbert", "--seeds", "0",
                    "--learn-rate", "2e-05", "--backbone", "all-mpnet-base-v2",
                    "--set", "training.optimizer.learn_rate.warmup_steps=120",
                    "--set", "components.negation_scope_negbert.lr_scale=0.2")
    (negbert,) = [line for line in lines if " -m spacy train " in line]
    assert "--training.optimizer.learn_rate.initial_rate 2e-05 " in negbert
    assert "--training.optimizer.learn_rate.warmup_steps 120 " in negbert
    assert "--components.negation_scope_negbert.lr_scale 0.2 " in negbert
    for bad in (["x"], ["=2"], ["a.b="], ["a.b=1", "a.b=2"]):
        args = [arg for spec in bad for arg in ("--set", spec)]
        proc = run_script("systems_run.py", "--dry-run", "--out-dir", "runs", "--backbone", "all-mpnet-base-v2",
                          *args, cwd=tmp_path)
        assert proc.returncode == 2 and "--set takes SECTION.KEY=VALUE" in proc.stderr, bad


def test_a_runs_own_training_config_is_its_summarys(with_backbone: Dict[str, Any], tmp_path: Path,
                                                    run_script: RunScript) -> None:
    """A run folder's train_config (written by systems_run.py) is the config its summary
    records; runs without the file get the grid's."""
    root = tmp_path / "copy"
    shutil.copytree(with_backbone["root"], root)
    folder = root / "training" / "systems" / "cdsco" / "negbert@mpnet" / "seed1"
    (folder / "train_config").write_text("configs/negbert.cfg --training.max_steps 1200\n", encoding="utf-8")
    proc = report(run_script, root)
    assert proc.returncode == 0, proc.stderr
    runs = root / "results" / "systems" / "runs"
    assert read_summary(runs / "cdsco__negbert@mpnet__seed1.json")["config"] == (
        "configs/negbert.cfg --training.max_steps 1200")
    assert "--training.max_steps 2400" in read_summary(runs / "cdsco__negbert@mpnet__seed0.json")["config"]
    # the report's config cell lists the seeds' distinct configs
    doc = json.loads((root / "results" / "systems.json").read_text(encoding="utf-8"))
    cell = doc["configs"]["cdsco"]["negbert@mpnet"].split("; ")
    assert len(cell) == 2 and cell[1] == "configs/negbert.cfg --training.max_steps 1200"


def test_an_unknown_backbone_is_refused(tmp_path: Path, run_script: RunScript) -> None:
    proc = run_script("systems_run.py", "--dry-run", "--out-dir", "runs", "--backbone", "bert-base", cwd=tmp_path)
    assert proc.returncode == 2 and "invalid choice: 'bert-base'" in proc.stderr


def test_sparse_counts_round_trip(tmp_path: Path) -> None:
    gold, system = tmp_path / "g.txt", tmp_path / "s.txt"
    gold.write_text(starsem_text(GOLD), encoding="utf-8")
    system.write_text(starsem_text(SYS_B), encoding="utf-8")
    table = count_table(((g.get_record(), s.get_record()) for g, s in iter_aligned(gold, system)),
                        ("starsem", "nis"))
    data = sparse_counts(table)
    assert data["sentences"] == 4 and [row[0] for row in data["rows"]] == [0, 1, 2]  # S4: no negation
    back = dense_counts(json.loads(json.dumps(data)))
    from spacy_negation.metrics.compare import parse_metric

    for _, metric in MEASURES.values():
        assert back.value(parse_metric(metric)) == pytest.approx(table.value(parse_metric(metric)))
    assert build_report([])["cdsco"] == {}


# --- bad input ------------------------------------------------------------------------------

def _grid_copy(built: Dict[str, Any], tmp_path: Path) -> Path:
    root = tmp_path / "copy"
    shutil.copytree(built["root"], root, ignore=shutil.ignore_patterns("results"))
    return root


def _fails(run_script: RunScript, root: Path, message: str) -> str:
    proc = report(run_script, root)
    assert proc.returncode == 1 and message in proc.stderr, proc.stderr
    assert not (root / "results").exists()  # nothing written
    return str(proc.stderr)


def test_bad_scores_json_is_a_coded_error(built: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root = _grid_copy(built, tmp_path)
    path = root / "training" / "systems" / "cdsco" / "negbert" / "seed0" / "test.json"
    path.write_text('{"scores": {"neg_cue_b_f": 0.5}}', encoding="utf-8")
    assert "neg_scm_b_f" in _fails(run_script, root, "cannot read the scores of a systems run")
    path.write_text("{not json", encoding="utf-8")
    assert str(path) in _fails(run_script, root, "cannot read the scores of a systems run")


def test_bad_train_seconds_is_a_coded_error(built: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root = _grid_copy(built, tmp_path)
    (root / "training" / "systems" / "cdsco" / "negbert" / "seed0" / "train_seconds").write_text("soon")
    _fails(run_script, root, "cannot read the scores of a systems run")


def test_bad_run_folder_name_is_a_coded_error(built: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root = _grid_copy(built, tmp_path)
    (root / "training" / "systems" / "cdsco" / "negbert" / "seed_a").mkdir()
    assert "seed_a" in _fails(run_script, root, "is named seedN")


def test_missing_gold_is_a_coded_error(built: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root = _grid_copy(built, tmp_path)
    (root / "training" / "systems" / "gold" / "cdsco_test.txt").unlink()
    _fails(run_script, root, "the gold *SEM file of the")


def test_misaligned_system_file_is_a_coded_error(built: Dict[str, Any], tmp_path: Path,
                                                 run_script: RunScript) -> None:
    root = _grid_copy(built, tmp_path)
    path = root / "training" / "systems" / "cdsco" / "negbert" / "seed0" / "test.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("came", "went"), encoding="utf-8")
    err = _fails(run_script, root, "[NEG-E200]")
    assert str(path) in err


def test_bad_summary_is_a_coded_error(built: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root = tmp_path / "copy"
    shutil.copytree(built["root"] / "results" / "systems", root / "results" / "systems")
    runs = root / "results" / "systems" / "runs"
    good = runs / "cdsco__negbert__seed0.json"
    (runs / "cdsco__negbert__seed7.json").write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    proc = report(run_script, root, tmp_path / "none")
    assert proc.returncode == 1 and "not a run summary of the systems report" in proc.stderr and "seed7" in proc.stderr
    (runs / "cdsco__negbert__seed7.json").write_text('{"corpus": "cdsco"}', encoding="utf-8")
    proc = report(run_script, root, tmp_path / "none")
    assert proc.returncode == 1 and "not a run summary of the systems report" in proc.stderr
    assert not (root / "results" / "systems.json").exists()


def test_seeds_on_different_sentences_are_a_coded_error(built: Dict[str, Any], tmp_path: Path) -> None:
    runs = built["root"] / "results" / "systems" / "runs"
    summaries = [read_summary(runs / f"cdsco__bilstm_tagger__seed{s}.json") for s in (0, 1)]
    summaries += [read_summary(runs / "cdsco__negbert__seed0.json")]
    summaries[1]["test_counts"]["sentences"] = 5
    with pytest.raises(ValueError, match=r"cover\ different\ numbers\ of"):
        build_report(summaries, samples=10, ar_samples=10)


# --- systems_run.py ---------------------------------------------------------------------------

def dry_run(run_script: RunScript, cwd: Path, *args: str) -> List[str]:
    proc = run_script("systems_run.py", "--dry-run", "--out-dir", "runs", *args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return str(proc.stdout).splitlines()


def test_dry_run_on_another_backbone(tmp_path: Path, run_script: RunScript) -> None:
    """--backbone: every transformer of the system's config on it, runs in SYSTEM@LABEL."""
    lines = dry_run(run_script, tmp_path, "--corpora", "cdsco", "--systems", "negbert", "bilstm_tagger",
                    "punct_baseline", "--seeds", "0", "--backbone", "all-mpnet-base-v2")
    trains = [line for line in lines if " -m spacy train " in line]
    assert len(trains) == 2
    (negbert,) = [line for line in trains if "configs/negbert.cfg" in line]
    assert "--output runs/cdsco/negbert@mpnet/seed0 " in negbert
    # the shared transformer and NegBERT's own copy
    assert ("--components.transformer.model.name all-mpnet-base-v2 "
            "--components.negation_scope_negbert.model.transformer.name all-mpnet-base-v2") in negbert
    (bilstm,) = [line for line in trains if "configs/negation_trf.cfg" in line]
    assert bilstm.count("all-mpnet-base-v2") == 1 and "runs/cdsco/bilstm_tagger@mpnet/seed0" in bilstm
    assert any("runs/cdsco/punct_baseline/seed0/" in line for line in lines)  # no backbone, no label


def test_dry_run_prints_the_grid(tmp_path: Path, run_script: RunScript) -> None:
    lines = dry_run(run_script, tmp_path, "--corpora", "cdsco", "bioscope", "--seeds", "0", "1")
    assert not (tmp_path / "runs").exists()  # nothing written
    trains = [line for line in lines if " -m spacy train " in line]
    # 2 corpora x 4 trained systems x 2 seeds, each once
    assert len(trains) == 16
    assert ("python -m spacy train configs/negation_trf.cfg --output runs/cdsco/bilstm_tagger/seed1 "
            "--system.seed 1 --paths.train corpus/train.spacy --paths.dev corpus/dev.spacy "
            "--training.max_steps 2400 --training.eval_frequency 200 > runs/cdsco/bilstm_tagger/seed1/train.log 2>&1"
            ) in lines
    assert any("train configs/negbert_bioscope.cfg --output runs/bioscope/negbert/seed0 --system.seed 0 >" in line
               for line in lines)
    assert any("train configs/bioscope.cfg --output runs/bioscope/bilstm_tagger/seed0 " in line for line in lines)
    assert any("train configs/dp_direct_bioscope.cfg " in line for line in lines)
    evals = [line for line in lines if "evaluate_model.py" in line]
    # per trained run: dev, test, two cross-domain, and gold cues for the two with a scope component
    assert len(evals) == 16 * 4 + 2 * 2 * 2
    gold_cues = [line for line in evals if "--gold-cues" in line]
    assert len(gold_cues) == 8 and not any("/dp_" in line for line in gold_cues)
    # BioScope and SFU are tagged for the punctuation rule wherever they are tested, CD-SCO never
    for line in evals + [line for line in lines if "punct_baseline.py" in line]:
        test = line.split()[2 if "punct_baseline.py" in line else 3]
        assert ("--tag-punct" in line) == ("corpus/bioscope/" in line or "corpus/sfu/" in line), line
        assert test.endswith(".spacy")
    assert any("model-best corpus/sfu/test.spacy runs/bioscope/dp_nested/seed1/cross_sfu.txt "
               "runs/bioscope/dp_nested/seed1/cross_sfu.json --tag-punct" in line for line in lines)
    # the punctuation baseline once per corpus (no seed loop), dev and test
    punct = [line for line in lines if "punct_baseline.py" in line]
    assert len(punct) == 4 and all("/punct_baseline/seed0/" in line for line in punct)
    assert "# write runs/gold/bioscope_test.txt from corpus/bioscope/test.spacy" in lines


def test_dry_run_selects_systems_and_seeds(tmp_path: Path, run_script: RunScript) -> None:
    lines = dry_run(run_script, tmp_path, "--corpora", "sfu", "--systems", "dp_nested", "--seeds", "3")
    assert [line for line in lines if line.startswith("# runs/")] == ["# runs/sfu/dp_nested/seed3 (new)"]
    assert sum(" -m spacy train configs/dp_nested_sfu.cfg " in line for line in lines) == 1


def test_dry_run_skips_finished_runs_and_redoes_unfinished(tmp_path: Path, run_script: RunScript) -> None:
    runs = tmp_path / "runs"
    finished = runs / "cdsco" / "negbert" / "seed0"
    for name in ("dev", "test", "cross_bioscope", "gold_cues_test"):
        scores_json(finished / f"{name}.json", same(0.5))
    unfinished = runs / "cdsco" / "negbert" / "seed1"
    scores_json(unfinished / "dev.json", same(0.5))
    lines = dry_run(run_script, tmp_path, "--corpora", "cdsco", "--systems", "negbert", "--seeds", "0", "1")
    block0 = lines[lines.index("# runs/cdsco/negbert/seed0 (finished)") + 1:
                   lines.index("# runs/cdsco/negbert/seed1 (unfinished: redone)")]
    # only the missing evaluation: SFU cross-domain
    assert len(block0) == 1 and "cross_sfu.json --tag-punct" in block0[0] and "spacy train" not in block0[0]
    block1 = lines[lines.index("# runs/cdsco/negbert/seed1 (unfinished: redone)") + 1:]
    assert "spacy train" in block1[0] and len(block1) == 6


def _tiny_corpora(root: Path) -> None:
    (root / "corpus" / "bioscope").mkdir(parents=True)
    (root / "corpus" / "sfu").mkdir()
    (root / "g.txt").write_text(starsem_text(GOLD), encoding="utf-8")
    for corpus in ("", "bioscope/", "sfu/"):
        docs = read_starsem_docs(root / "g.txt", n_sents=2)
        if corpus:  # BioScope and SFU come without POS tags
            for doc in docs:
                for token in doc:
                    token.tag_ = ""
        for split in ("train", "dev", "test"):
            write_docbin(docs, root / "corpus" / f"{corpus}{split}.spacy")


def test_run_redoes_an_unfinished_punct_baseline_and_skips_finished_runs(tmp_path: Path,
                                                                         run_script: RunScript) -> None:
    _tiny_corpora(tmp_path)
    folder = tmp_path / "runs" / "sfu" / "punct_baseline" / "seed0"
    folder.mkdir(parents=True)
    (folder / "stale.txt").write_text("left over", encoding="utf-8")
    finished = tmp_path / "runs" / "sfu" / "dp_nested" / "seed0"
    for name in ("dev", "test", "cross_cdsco", "cross_bioscope"):
        scores_json(finished / f"{name}.json", same(0.5))
    (finished / "test.txt").write_text(starsem_text(SYS_A), encoding="utf-8")
    proc = run_script("systems_run.py", "--out-dir", "runs", "--corpora", "sfu", "--systems",
                      "punct_baseline", "dp_nested", "--seeds", "0", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not (folder / "stale.txt").exists()
    assert {p.name for p in folder.iterdir()} == {"dev.txt", "dev.json", "test.txt", "test.json",
                                                  "eval_dev.log", "eval_test.log"}
    result = json.loads((folder / "test.json").read_text(encoding="utf-8"))
    assert result["scores"]["neg_cue_b_f"] == 1.0  # gold cues
    assert {p.name for p in finished.iterdir()} == {"dev.json", "test.json", "test.txt", "cross_cdsco.json",
                                                    "cross_bioscope.json"}  # nothing to do
    gold = (tmp_path / "runs" / "gold" / "sfu_test.txt").read_text(encoding="utf-8")
    # SFU is tagged for the punctuation rule: '.' for punctuation, XX otherwise
    assert gold.splitlines()[0].split("\t")[5] == "XX" and gold.splitlines()[4].split("\t")[5] == "."
    # the report reads the run
    proc = run_script("systems_report.py", "--runs-dir", "runs", "--summaries-dir", "sums", "--out-dir", "out",
                      cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "out" / "systems.json").read_text(encoding="utf-8"))
    assert doc["sfu"]["punct_baseline"]["mean"]["cues_b_f"] == 1.0


def test_failed_evaluation_is_a_coded_error(tmp_path: Path, run_script: RunScript) -> None:
    _tiny_corpora(tmp_path)
    finished = tmp_path / "runs" / "cdsco" / "dp_direct" / "seed0"
    for name in ("dev", "test", "cross_bioscope"):
        scores_json(finished / f"{name}.json", same(0.5))
    proc = run_script("systems_run.py", "--out-dir", "runs", "--corpora", "cdsco", "--systems",
                      "dp_direct", "--seeds", "0", cwd=tmp_path)  # no model-best to evaluate
    assert proc.returncode == 1 and "failed with exit code" in proc.stderr and "eval_cross_sfu.log" in proc.stderr
    assert (finished / "test.json").exists()


def test_missing_corpus_is_a_coded_error(tmp_path: Path, run_script: RunScript) -> None:
    proc = run_script("systems_run.py", "--out-dir", "runs", "--corpora", "sfu", cwd=tmp_path)
    assert proc.returncode == 1 and "[NEG-E130]" in proc.stderr and "corpus/sfu/train.spacy" in proc.stderr
    assert not (tmp_path / "runs").exists()


def _speed_json(path: Path, models: Dict[str, Any], words: int = 1000) -> Path:
    path.write_text(json.dumps({"data": "corpus/test.spacy", "docs": 2, "sentences": 50, "words": words,
                                "cue_instances": 10, "threads": 1, "batch_size": 64, "repeat": 2,
                                "load_average_start": 1.0, "load_average_end": 1.5, "models": models}),
                    encoding="utf-8")
    return path


def test_speed_of_one_run_is_reported(built: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root = _grid_copy(built, tmp_path)
    speed = _speed_json(tmp_path / "speed.json", {
        "negbert": {"path": "m/negbert", "stages": {"transformer": {"wall_s": 1.0, "cpu_s": 0.5},
                                                    "nlp.pipe end to end": {"wall_s": 4.0, "cpu_s": 2.0}}},
        "bilstm_tagger": {"path": "m/bilstm", "stages": {"nlp.pipe end to end": {"wall_s": 2.0, "cpu_s": 1.25}}}})
    proc = report(run_script, root, None, "--speed", str(speed))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((root / "results" / "systems.json").read_text(encoding="utf-8"))
    one = doc["speed_one_run"]
    assert (one["words"], one["threads"], list(one["systems"])) == (1000, 1, ["bilstm_tagger", "negbert"])
    negbert = one["systems"]["negbert"]["stages"]
    assert [r["stage"] for r in negbert] == ["nlp.pipe end to end", "transformer"]  # end to end first
    assert negbert[0]["words_per_second"] == pytest.approx(250.0)
    assert negbert[0]["words_per_cpu_second"] == pytest.approx(500.0)
    md = (root / "results" / "systems.md").read_text(encoding="utf-8")
    assert "## Speed, one run" in md and "1 torch thread(s), best of 2 run(s);" in md
    assert "| BiLSTM-Tagger | `m/bilstm` | nlp.pipe end to end | 2.00 | 500 | 1.25 | 800 |" in md
    assert "## Speed, one run" not in built["md"]  # only with --speed


@pytest.mark.parametrize("models,words,reason", [
    ({"negbert": {"path": "m", "stages": {"negation_scope": {"wall_s": 1.0, "cpu_s": 1.0}}}}, 1000, "end to end"),
    ({"negbert": {"path": "m", "stages": {"nlp.pipe end to end": {"wall_s": 0, "cpu_s": 1.0}}}}, 1000, "positive"),
    ({"crf": {"path": "m", "stages": {"nlp.pipe end to end": {"wall_s": 1.0, "cpu_s": 1.0}}}}, 1000, "crf"),
    ({}, 1000, "models"),
    ({"negbert": {"path": "m", "stages": {"nlp.pipe end to end": {"wall_s": 1.0, "cpu_s": 1.0}}}}, 0, "no words"),
])
def test_bad_speed_json_is_a_coded_error(built: Dict[str, Any], tmp_path: Path, run_script: RunScript,
                                         models: Dict[str, Any], words: int, reason: str) -> None:
    root = _grid_copy(built, tmp_path)
    speed = _speed_json(tmp_path / "speed.json", models, words)
    proc = report(run_script, root, None, "--speed", str(speed))
    assert proc.returncode == 1 and "not a speed measurement" in proc.stderr and reason in proc.stderr, proc.stderr
    assert not (root / "results").exists()


def _comparison(run_script: RunScript, tmp_path: Path) -> Path:
    """results/cmp.json of general_compare.py: A two seeds (NIS_tok 80, 82), B one seed (85)."""
    gold = tmp_path / "gold.txt"
    gold.write_text(starsem_text(GOLD), encoding="utf-8")
    for side, values, system in (("a", (0.80, 0.82), SYS_A), ("b", (0.85,), SYS_B)):
        for seed, value in enumerate(values):
            folder = tmp_path / side / f"seed{seed}"
            folder.mkdir(parents=True)
            (folder / "on_cdsco.json").write_text(json.dumps({"scores": {FLAT[k]: value for k in MEASURES}}),
                                                  encoding="utf-8")
            (folder / "on_cdsco.txt").write_text(starsem_text(system), encoding="utf-8")
    proc = run_script("general_compare.py", "--a", f"the default={tmp_path / 'a'}", "--b", f"student={tmp_path / 'b'}",
                      "--gold", f"cdsco={gold}", "--goal", "4.0", "--name", "cmp", "--out-dir", tmp_path / "cmp",
                      "--samples", "200", "--ar-samples", "200")
    assert proc.returncode == 0, proc.stderr
    return tmp_path / "cmp" / "cmp.json"


def test_the_distilled_default_is_reported(built: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root = _grid_copy(built, tmp_path)
    comparison = _comparison(run_script, tmp_path)
    proc = report(run_script, root, None, "--distilled", str(comparison))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((root / "results" / "systems.json").read_text(encoding="utf-8"))
    entry = doc["distilled"]["splits"]["cdsco"]
    assert (doc["distilled"]["a"], doc["distilled"]["b"]) == ("the default", "student")
    assert entry["a"]["seeds"] == [0, 1] and entry["b"]["nis_tok_f"] == {"mean": 0.85, "sd": None}
    assert entry["nis_tok_diff"]["diff"] == pytest.approx(0.04) and entry["goal_met"] is True
    md = (root / "results" / "systems.md").read_text(encoding="utf-8")
    assert "## The default general model and a distilled student" in md
    assert "| CD-SCO | the default | 2 | 81.00 ± 1.41 | 81.00 ± 1.41 |" in md
    assert "| CD-SCO | student | 1 | 85.00 | 85.00 | 85.00 | 85.00 | 85.00 | +4.00 (" in md and "| met |" in md
    assert "distilled student" not in built["md"]  # only with --distilled


@pytest.mark.parametrize("edit,reason", [
    (lambda d: d.pop("splits"), "no 'splits'"),
    (lambda d: d["splits"]["cdsco"]["b"].update(seeds=[]), "'b' has no seeds"),
    (lambda d: d["splits"]["cdsco"].update(comparisons=[]), "no paired test"),
    (lambda d: d["splits"]["cdsco"].pop("diff"), "no difference of the means"),
    (lambda d: d["splits"]["cdsco"].pop("goal_met"), "'goal_met' is not true or false"),
    (lambda d: d["splits"].update(wiki=d["splits"]["cdsco"]), "unknown split 'wiki'"),
])
def test_a_bad_comparison_is_an_error_and_writes_nothing(built: Dict[str, Any], tmp_path: Path,
                                                         run_script: RunScript, edit: Any, reason: str) -> None:
    root = _grid_copy(built, tmp_path)
    comparison = _comparison(run_script, tmp_path)
    doc = json.loads(comparison.read_text(encoding="utf-8"))
    edit(doc)
    comparison.write_text(json.dumps(doc), encoding="utf-8")
    proc = report(run_script, root, None, "--distilled", str(comparison))
    assert proc.returncode == 1 and "not a comparison written by scripts/general_compare.py" in proc.stderr
    assert reason in proc.stderr, proc.stderr
    assert not (root / "results").exists()


WORDS = ["He", "was", "unhappy", "neither", "nor", "not", "."]


def _sem(instances: List[Dict[int, Tuple[str, str]]]) -> str:
    """One *SEM sentence of WORDS: per instance, token -> (cue cell, scope cell)."""
    rows = []
    for i, word in enumerate(WORDS):
        cells = [c for inst in instances for c in (*inst.get(i, ("_", "_")), "_")]
        rows.append("\t".join(["d", "0", str(i), word, word.lower(), "NN" if word != "." else ".", "*", *cells]))
    return "\n".join(rows) + "\n"


def test_cue_type_counts_by_hand(tmp_path: Path) -> None:
    # gold: "unhappy" with the affixal cue "un"; "Neither ... nor" (multiword); "not" (normal)
    gold = _sem([{2: ("un", "happy")}, {3: ("neither", "_"), 4: ("nor", "_")}, {5: ("not", "_")}])
    # the system: the whole word "unhappy" (a spurious normal cue, the affixal one missed),
    # "neither" alone (spurious normal, the multiword one missed), "not" right
    system = _sem([{2: ("unhappy", "_")}, {3: ("neither", "_")}, {5: ("not", "_")}])
    (tmp_path / "g.txt").write_text(gold, encoding="utf-8")
    (tmp_path / "s.txt").write_text(system, encoding="utf-8")
    counts = cue_type_counts(read_pairs(tmp_path / "g.txt", tmp_path / "s.txt"))
    assert counts == {"normal": [1, 1, 2], "multiword": [1, 0, 0], "affixal": [1, 0, 0]}
    assert cue_type_counts(read_pairs(tmp_path / "g.txt", tmp_path / "g.txt")) == {
        "normal": [1, 1, 0], "multiword": [1, 1, 0], "affixal": [1, 1, 0]}


def test_cue_types_are_averaged_over_seeds(built: Dict[str, Any]) -> None:
    # GOLD has three one-word cues; SYS_A misses one (seeds 0 and 2), SYS_B finds all (seed 1)
    cell = built["doc"]["cue_types"]["cdsco"]["bilstm_tagger"]
    assert cell["seeds"] == [0, 1, 2]
    assert cell["normal"] == {"gold": 3, "found": pytest.approx(7 / 3), "spurious": 0.0}
    assert cell["affixal"] == {"gold": 0, "found": 0.0, "spurious": 0.0}
    assert "| BiLSTM-Tagger | 3 | 2.3 of 3 (77.8%) | 0.0 | 0.0 of 0 | 0.0 | 0.0 of 0 | 0.0 |" in built["md"]


def test_bad_cue_type_counts_in_a_summary_are_a_coded_error(built: Dict[str, Any], tmp_path: Path) -> None:
    path = built["root"] / "results" / "systems" / "runs" / "cdsco__negbert__seed0.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert set(doc["test_cue_types"]) == {"normal", "multiword", "affixal"}
    doc["test_cue_types"]["affixal"] = [1, 2]
    bad = tmp_path / path.name
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match=r"not\ a\ run\ summary\ of\ the\ systems\ report.*test_cue_types"):
        read_summary(bad)
    del doc["test_cue_types"]  # summaries written before the counts are still read
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert "test_cue_types" not in read_summary(bad)


def test_scope_outcome_counts_by_hand(tmp_path: Path) -> None:
    # sentence 0 -- gold: "not" over "He was", "un" over "happy", "neither ... nor" without
    # scope; the system: "not" over "He" (too short), "un" over "was happy" (too long),
    # "neither" alone (the multiword cue missed)
    gold = [_sem([{5: ("not", "_"), 0: ("_", "He"), 1: ("_", "was")}, {2: ("un", "happy")},
                  {3: ("neither", "_"), 4: ("nor", "_")}])]
    system = [_sem([{5: ("not", "_"), 0: ("_", "He")}, {2: ("un", "happy"), 1: ("_", "was")},
                    {3: ("neither", "_")}])]
    # sentence 1 -- "not" over "He was" and the full stop (punctuation is left out: exact);
    # "un" over "was" instead of "happy" (crossing)
    gold.append(_sem([{5: ("not", "_"), 0: ("_", "He"), 1: ("_", "was")}, {2: ("un", "happy")}]))
    system.append(_sem([{5: ("not", "_"), 0: ("_", "He"), 1: ("_", "was"), 6: ("_", ".")},
                        {2: ("un", "_"), 1: ("_", "was")}]))
    for name, sentences in (("g.txt", gold), ("s.txt", system)):
        text = "\n".join(sent.replace("d\t0\t", f"d\t{k}\t") for k, sent in enumerate(sentences))
        (tmp_path / name).write_text(text, encoding="utf-8")
    counts = scope_outcome_counts(read_pairs(tmp_path / "g.txt", tmp_path / "s.txt"))
    assert counts == {"cue_missed": 1, "exact": 1, "too_short": 1, "too_long": 1, "crossing": 1}
    assert list(counts) == ["cue_missed", "exact", "too_short", "too_long", "crossing"]
    assert scope_outcome_counts(read_pairs(tmp_path / "g.txt", tmp_path / "g.txt")) == {
        "cue_missed": 0, "exact": 5, "too_short": 0, "too_long": 0, "crossing": 0}


def test_scope_outcomes_are_averaged_over_seeds(built: Dict[str, Any]) -> None:
    # GOLD's three instances: SYS_A (seeds 0 and 2) has one exact, one too short and one
    # cue missed; SYS_B (seed 1) two exact and one too short
    cell = built["doc"]["scope_outcomes"]["cdsco"]["bilstm_tagger"]
    assert cell == {"seeds": [0, 1, 2], "cue_missed": pytest.approx(2 / 3), "exact": pytest.approx(4 / 3),
                    "too_short": 1.0, "too_long": 0.0, "crossing": 0.0}
    assert "| CD-SCO | BiLSTM-Tagger | 3 | 0.7 | 1.3 | 1.0 | 0.0 | 0.0 |" in built["md"]


def test_bad_scope_outcomes_in_a_summary_are_a_coded_error(built: Dict[str, Any], tmp_path: Path) -> None:
    path = built["root"] / "results" / "systems" / "runs" / "cdsco__negbert__seed0.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    bad = tmp_path / path.name
    for outcomes in ({**doc["test_scope_outcomes"], "exact": -1}, {"exact": 3}):
        bad.write_text(json.dumps({**doc, "test_scope_outcomes": outcomes}), encoding="utf-8")
        with pytest.raises(ValueError, match=r"not\ a\ run\ summary\ of\ the\ systems\ report.*test_scope_outcomes"):
            read_summary(bad)
    del doc["test_scope_outcomes"]  # summaries written before the counts are still read
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert "test_scope_outcomes" not in read_summary(bad)


def test_dry_run_on_a_data_variant(tmp_path: Path, run_script: RunScript) -> None:
    """--data affixal: the variant's train split replaces the corpus's (once), runs in
    SYSTEM@affixal, no Punct-BL run (gold cues, nothing trained)."""
    lines = dry_run(run_script, tmp_path, "--corpora", "cdsco", "--systems", "negbert", "punct_baseline",
                    "--seeds", "0", "--data", "affixal")
    (negbert,) = [line for line in lines if " -m spacy train " in line]
    assert negbert.count("--paths.train") == 1 and "--paths.train corpus/cdsco_affixal/train.spacy" in negbert
    assert "--output runs/cdsco/negbert@affixal/seed0 " in negbert and "--paths.dev corpus/dev.spacy" in negbert
    assert not any("punct_baseline" in line for line in lines)
    assert any("evaluate_model.py runs/cdsco/negbert@affixal/seed0/model-best corpus/test.spacy" in line
               for line in lines)
    for args, message in ((["--corpora", "bioscope"], "--data affixal has no train split for bioscope"),
                          (["--backbone", "all-mpnet-base-v2"], "--backbone and --data are one variant each"),
                          (["--set", "paths.train=x.spacy"], "--data sets paths.train itself")):
        proc = run_script("systems_run.py", "--dry-run", "--out-dir", "runs", "--data", "affixal", *args, cwd=tmp_path)
        assert proc.returncode == 2 and message in proc.stderr, args


def test_a_data_variant_is_a_row_compared_with_its_system(built: Dict[str, Any], tmp_path: Path,
                                                          run_script: RunScript) -> None:
    root = tmp_path / "variant"
    shutil.copytree(built["root"] / "training", root / "training")
    runs = root / "training" / "systems"
    folder = make_run(runs, "cdsco", "negbert@affixal", 0, same(0.8), same(0.96), SYS_B)
    proc = report(run_script, root)
    # its config comes from the train_config that systems_run.py writes: without it, refused
    assert proc.returncode == 1 and "train_config" in proc.stderr
    (folder / "train_config").write_text("configs/negbert.cfg --paths.train corpus/cdsco_affixal/train.spacy\n",
                                         encoding="utf-8")
    proc = report(run_script, root)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((root / "results" / "systems.json").read_text(encoding="utf-8"))
    assert doc["cdsco"]["negbert@affixal"]["seeds"] == [0]
    assert doc["backbones"]["cdsco"]["negbert@affixal"]["against"] == "negbert"
    assert doc["cue_types"]["cdsco"]["negbert@affixal"]["seeds"] == [0]  # the before/after cue-type rows
    md = (root / "results" / "systems.md").read_text(encoding="utf-8")
    assert "| NegBERT@affixal | 1 | 80.00 |" in md
    assert "### CD-SCO: NegBERT@affixal (1 seed(s)) against NegBERT" in md
    assert "*affixal*: trained on CD-SCO train with two copies of each sentence with an affixal cue" in md


def test_cross_domain_mean_by_hand() -> None:
    pairs = ["cdsco->bioscope", "cdsco->sfu", "bioscope->cdsco", "bioscope->sfu", "sfu->cdsco", "sfu->bioscope"]
    cross: Dict[str, Dict[str, Dict[str, Optional[float]]]] = {
        p: {"negbert": {"nis_tok_f": 0.1 * (k + 1), "nis_ex_f": None if k == 2 else 0.5}}
        for k, p in enumerate(pairs)}
    for p in pairs[:5]:  # one pair short: no mean
        cross[p]["dp_nested"] = {"nis_tok_f": 0.9}
    means = cross_domain_means(cross)
    assert set(means) == {"negbert"}
    assert means["negbert"] == {"nis_tok_f": pytest.approx(0.35)}  # (0.1 + ... + 0.6) / 6; nis_ex_f lacks a pair


def test_cross_domain_mean_is_reported_for_a_full_grid(built: Dict[str, Any], tmp_path: Path,
                                                        run_script: RunScript) -> None:
    """NegBERT@mpnet with all six pairs (CD-SCO over two seeds, the others one) gets a mean;
    the grid's NegBERT (CD-SCO -> SFU only) does not."""
    root = tmp_path / "full"
    shutil.copytree(built["root"] / "training", root / "training")
    runs = root / "training" / "systems"
    for seed in (0, 1):
        make_run(runs, "cdsco", "negbert@mpnet", seed, same(0.8), same(0.9), SYS_B, ("cross_bioscope", "cross_sfu"))
    for corpus, others, value in (("bioscope", ("cross_cdsco", "cross_sfu"), 0.6),
                                  ("sfu", ("cross_cdsco", "cross_bioscope"), 0.5)):
        (runs / "gold" / f"{corpus}_test.txt").write_text(starsem_text(GOLD), encoding="utf-8")
        make_run(runs, corpus, "negbert@mpnet", 0, same(value), same(0.9), SYS_B, others)
    proc = report(run_script, root)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((root / "results" / "systems.json").read_text(encoding="utf-8"))
    assert set(doc["cross_domain_mean"]) == {"negbert@mpnet"}
    entry = doc["cross_domain_mean"]["negbert@mpnet"]
    assert entry["seeds"] == {"cdsco->bioscope": 2, "cdsco->sfu": 2, "bioscope->cdsco": 1, "bioscope->sfu": 1,
                              "sfu->cdsco": 1, "sfu->bioscope": 1}
    assert entry["mean"]["nis_tok_f"] == pytest.approx((0.8 * 2 + 0.6 * 2 + 0.5 * 2) / 6)
    md = (root / "results" / "systems.md").read_text(encoding="utf-8")
    assert "### Mean over the six pairs" in md and "| NegBERT@mpnet | 1/1/2/1/1/2 |" not in md
    assert "| NegBERT@mpnet | 2/2/1/1/1/1 | 63.33 |" in md
    assert "| BiLSTM-Tagger (published) |  | 65.1 | 25.6 | 53.5 | 54.5 | - |" in md

"""scripts/general_compare.py: two trainings of the general model over seeds, per split the
mean ± sd of each, the difference and the paired tests, on hand-written metrics folders
(the four-sentence *SEM case of tests/starsem_systems.py). No training."""
import json
from pathlib import Path
from typing import Any, Dict, List, Sequence

from systems_grid import MEASURES
from starsem_systems import GOLD, SYS_A, SYS_B, starsem_text

RunScript = Any


def seeds_folder(root: Path, values: Sequence[float], system_file: List[Any], split: str = "cdsco") -> Path:
    """A metrics folder as general_seeds.py evaluate writes it: seedN/on_SPLIT.{json,txt}."""
    for seed, value in enumerate(values):
        folder = root / f"seed{seed}"
        folder.mkdir(parents=True)
        scores = {src: value for src, _ in MEASURES.values()}
        (folder / f"on_{split}.json").write_text(json.dumps({"scores": scores}), encoding="utf-8")
        (folder / f"on_{split}.txt").write_text(starsem_text(system_file), encoding="utf-8")
    return root


def run(run_script: RunScript, tmp_path: Path, *more: str) -> Any:
    gold = tmp_path / "gold.txt"
    gold.write_text(starsem_text(GOLD), encoding="utf-8")
    return run_script("general_compare.py", "--a", f"old={tmp_path / 'a'}", "--b", f"new={tmp_path / 'b'}",
                      "--gold", f"cdsco={gold}", "--name", "cmp", "--out-dir", tmp_path / "out",
                      "--samples", "200", "--ar-samples", "200", *more)


def test_means_differences_paired_tests_and_the_goal(run_script: RunScript, tmp_path: Path) -> None:
    seeds_folder(tmp_path / "a", [0.80, 0.82], SYS_A)
    seeds_folder(tmp_path / "b", [0.85, 0.86, 0.87], SYS_B)
    single = tmp_path / "teacher"
    single.mkdir()
    (single / "on_cdsco.json").write_text(json.dumps({"scores": {src: 0.9 for src, _ in MEASURES.values()}}),
                                          encoding="utf-8")
    proc = run(run_script, tmp_path, "--single", f"teacher={single}", "--goal", "4.0")
    assert proc.returncode == 0, proc.stderr
    doc: Dict[str, Any] = json.loads((tmp_path / "out" / "cmp.json").read_text(encoding="utf-8"))
    entry = doc["splits"]["cdsco"]
    assert entry["a"]["seeds"] == [0, 1] and entry["b"]["seeds"] == [0, 1, 2]
    assert abs(entry["a"]["nis_tok_f"]["mean"] - 0.81) < 1e-9
    assert abs(entry["b"]["nis_tok_f"]["sd"] - 0.01) < 1e-9
    assert abs(entry["diff"]["nis_tok_f"] - 0.05) < 1e-9
    assert entry["goal_met"] is True  # +5.0 points >= 4.0
    # the paired tests count the system files: B finds the cue A misses (S3)
    cues = next(c for c in entry["comparisons"] if c["metric"] == "starsem.cues_b.f")
    assert cues["value_b"] > cues["value_a"] and cues["a"] == "old" and cues["b"] == "new"
    assert doc["single"]["teacher"]["cdsco"]["nis_tok_f"] == 0.9
    md = (tmp_path / "out" / "cmp.md").read_text(encoding="utf-8")
    assert "| NIS_tok F1 | 81.00 ± 1.41 | 86.00 ± 1.00 | +5.00 |" in md
    assert "at least 4.0 above A's): met." in md and "| CD-SCO | teacher | 90.00 | 90.00 | 90.00 | 90.00 | 90.00 |" in md


def test_a_gain_below_the_goal_is_not_met(run_script: RunScript, tmp_path: Path) -> None:
    seeds_folder(tmp_path / "a", [0.80, 0.82], SYS_A)
    seeds_folder(tmp_path / "b", [0.81, 0.82], SYS_B)
    assert run(run_script, tmp_path, "--goal", "1.0").returncode == 0
    doc = json.loads((tmp_path / "out" / "cmp.json").read_text(encoding="utf-8"))
    assert doc["splits"]["cdsco"]["goal_met"] is False  # +0.5 < 1.0
    assert "not met." in (tmp_path / "out" / "cmp.md").read_text(encoding="utf-8")


def test_without_a_goal_none_is_stated(run_script: RunScript, tmp_path: Path) -> None:
    seeds_folder(tmp_path / "a", [0.80, 0.82], SYS_A)
    seeds_folder(tmp_path / "b", [0.81, 0.82], SYS_B)
    assert run(run_script, tmp_path).returncode == 0
    doc = json.loads((tmp_path / "out" / "cmp.json").read_text(encoding="utf-8"))
    assert doc["goal"] is None and "goal_met" not in doc["splits"]["cdsco"]
    assert "Goal" not in (tmp_path / "out" / "cmp.md").read_text(encoding="utf-8")


def test_a_missing_system_file_is_an_error_naming_it_and_writes_nothing(run_script: RunScript,
                                                                        tmp_path: Path) -> None:
    seeds_folder(tmp_path / "a", [0.80, 0.82], SYS_A)
    seeds_folder(tmp_path / "b", [0.81, 0.82], SYS_B)
    (tmp_path / "b" / "seed1" / "on_cdsco.txt").unlink()
    proc = run(run_script, tmp_path)
    assert proc.returncode == 1
    assert "seed1/on_cdsco.txt: missing" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_spacy_gold_file_counts_as_its_starsem_file(run_script: RunScript, tmp_path: Path) -> None:
    """The project passes the test splits as .spacy files: written as *SEM, they give the
    counts of the *SEM gold file itself."""
    from spacy_negation import register_extensions
    from spacy_negation.corpora.starsem_docs import read_starsem_docs
    from test_report import write_docbin

    register_extensions()
    seeds_folder(tmp_path / "a", [0.80, 0.82], SYS_A)
    seeds_folder(tmp_path / "b", [0.81, 0.82], SYS_B)
    assert run(run_script, tmp_path).returncode == 0
    by_starsem = json.loads((tmp_path / "out" / "cmp.json").read_text(encoding="utf-8"))
    write_docbin(read_starsem_docs(tmp_path / "gold.txt"), tmp_path / "gold.spacy")
    proc = run_script("general_compare.py", "--a", f"old={tmp_path / 'a'}", "--b", f"new={tmp_path / 'b'}",
                      "--gold", f"cdsco={tmp_path / 'gold.spacy'}", "--name", "cmp2", "--out-dir", tmp_path / "out",
                      "--samples", "200", "--ar-samples", "200")
    assert proc.returncode == 0, proc.stderr
    by_spacy = json.loads((tmp_path / "out" / "cmp2.json").read_text(encoding="utf-8"))
    assert by_spacy["splits"] == by_starsem["splits"]

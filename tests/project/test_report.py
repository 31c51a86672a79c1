"""The CD-SCO report: scripts/report.py (JSON, markdown, plots; run as a subprocess) on
tiny synthetic projects, and the re-scoring and scope-length buckets of
spacy_negation.analysis.breakdowns.

The score files are made the way the project makes them: the punctuation baseline by
running scripts/punct_baseline.py, the two "model" systems by perturbing the gold negations
and scoring them with the library (spacy_negation.analysis.score_docs), as
scripts/evaluate_model.py does.
"""
import copy
import json
import shutil
import struct
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pytest
import srsly
from spacy.tokens import Doc, DocBin

from spacy_negation import set_negations
from spacy_negation.analysis import breakdowns, score_docs
from spacy_negation.corpora.starsem_docs import doc_to_sentences, read_starsem_docs, write_starsem_docs
from spacy_negation.metrics.faireval import FAIR_TYPES

RunScript = Callable[..., Any]

SYSTEMS = ("punct_baseline", "model_end_to_end", "model_gold_cues")
ENTRY_KEYS = {"cues_b_f", "scm_f", "scm_b_f", "st_p", "st_r", "st_f", "nis_tok_p", "nis_tok_r",
              "nis_tok_f", "nis_ex_f", "fair_trad_f", "fair_f", "fair_weighted_f", "cue_f_by_type",
              "faireval_counts"}
SCORER_KEY = {"cues_b_f": "neg_cue_b_f", "scm_f": "neg_scm_f", "scm_b_f": "neg_scm_b_f",
              "st_p": "neg_st_p", "st_r": "neg_st_r", "st_f": "neg_st_f",
              "nis_tok_p": "neg_nis_tok_p", "nis_tok_r": "neg_nis_tok_r", "nis_tok_f": "neg_nis_tok_f",
              "nis_ex_f": "neg_nis_ex_f", "fair_trad_f": "neg_fair_trad_f", "fair_f": "neg_fair_f",
              "fair_weighted_f": "neg_fair_weighted_f"}
OUTPUTS = ("cdsco.json", "cdsco.md", "cdsco_scope_length.png", "cdsco_faireval_errors.png",
           "cdsco_cue_types.png")

# --- tiny *SEM data --------------------------------------------------------------------------
# A token: (form, POS); an instance: {"cue": {pos: cell}, "scope": {...}, "event": {...}}.
Tok = Tuple[str, str]


def sem_sentence(doc_id: str, sent_no: int, tokens: Sequence[Tok],
                 instances: Sequence[Dict[str, Dict[int, str]]] = ()) -> str:
    lines = []
    for i, (form, pos) in enumerate(tokens):
        cols = [doc_id, str(sent_no), str(i), form, form.lower(), pos, "_"]
        if not instances:
            cols.append("***")
        for inst in instances:
            for role in ("cue", "scope", "event"):
                cols.append(inst.get(role, {}).get(i, "_"))
        lines.append("\t".join(cols))
    return "\n".join(lines) + "\n"


def _toks(text: str) -> List[Tok]:
    out = []
    for w in text.split():
        pos = w if w in {",", ".", ":"} else ("DT" if w.lower() in {"the", "a", "neither"} else "NN")
        out.append((w, pos))
    return out


S1 = _toks("He did not go , and she was never happy .")
S2 = _toks("Neither he nor she came .")
S3 = _toks("Nothing .")
S4 = _toks("The room was quite untidy and the door was not locked .")
S5 = _toks("It rained .")
S6 = _toks("She had no money , no friends and never a hope of rescue at all in that town .")


def gold_text(doc_id: str) -> str:
    """Sentences with normal, affixal, multiword (discontinuous) cues, an empty scope,
    punctuation inside a scope, a long scope and a sentence without negation."""
    return "\n".join([
        sem_sentence(doc_id, 0, S1, [
            {"cue": {2: "not"}, "scope": {0: "He", 1: "did", 3: "go", 4: ","}, "event": {3: "go"}},
            {"cue": {8: "never"}, "scope": {9: "happy"}}]),
        sem_sentence(doc_id, 1, S2, [{"cue": {0: "Neither", 2: "nor"}, "scope": {1: "he", 3: "she", 4: "came"}}]),
        sem_sentence(doc_id, 2, S3, [{"cue": {0: "Nothing"}}]),
        sem_sentence(doc_id, 3, S4, [
            {"cue": {4: "un"}, "scope": {1: "room", 2: "was", 4: "tidy"}},
            {"cue": {9: "not"}, "scope": {6: "the", 7: "door", 8: "was", 10: "locked"}}]),
        sem_sentence(doc_id, 4, S5),
        sem_sentence(doc_id, 5, S6, [
            {"cue": {2: "no"}, "scope": {0: "She", 1: "had", 3: "money"}},
            {"cue": {8: "never"}, "scope": {0: "She", 1: "had", 9: "a", 10: "hope", 11: "of", 12: "rescue",
                                            13: "at", 14: "all", 15: "in", 16: "that", 17: "town"}}]),
    ])


# --- score files as the project makes them --------------------------------------------------

def write_docbin(docs: Sequence[Doc], path: Path) -> None:
    db = DocBin(store_user_data=True)
    for doc in docs:
        db.add(doc)
    path.write_bytes(db.to_bytes())


def run_punct_baseline(gold: Path, txt: Path, scores: Path, run_script: RunScript) -> None:
    proc = run_script("punct_baseline.py", gold, txt, scores)
    assert proc.returncode == 0, proc.stderr


def perturb(docs: Sequence[Doc], end_to_end: bool) -> List[Doc]:
    """A stand-in system: gold cues with the last scope token dropped from every second
    negation; end to end also misses every third negation and adds a false cue ('and')."""
    out = []
    k = 0
    for gold in docs:
        doc = copy.deepcopy(gold)
        negs = []
        for neg in sorted(doc._.negations, key=lambda n: n.id):
            k += 1
            if end_to_end and k % 3 == 0:
                continue
            scope = list(neg.scope)
            if k % 2 == 0 and scope:
                scope = scope[:-1]
            negs.append({"cue": list(neg.cue), "scope": scope, "event": list(neg.event)})
        if end_to_end:
            negs += [{"cue": [t], "scope": [doc[t.i + 1]]} for t in doc if t.text == "and"]
        set_negations(doc, negs)
        out.append(doc)
    return out


def write_system(gold: Sequence[Doc], system: Sequence[Doc], txt: Path, scores_path: Path,
                 gold_cues: Optional[bool]) -> None:
    """What scripts/evaluate_model.py writes, for docs already predicted."""
    write_starsem_docs(system, txt)
    doc: Dict[str, Any] = score_docs(system, gold)
    if gold_cues is not None:
        doc["gold_cues"] = gold_cues
    scores_path.write_text(srsly.json_dumps(doc, indent=2), encoding="utf8")


def make_project(root: Path, run_script: RunScript) -> Dict[str, Any]:
    """Gold (dev: one .spacy; test: two *SEM files as cardboard + circle) and the six
    system files."""
    (root / "corpus").mkdir(parents=True)
    (root / "metrics").mkdir()
    (root / "corpus" / "dev.txt").write_text(gold_text("dev01"), encoding="utf8")
    (root / "corpus" / "test_a.txt").write_text(gold_text("carda"), encoding="utf8")
    (root / "corpus" / "test_b.txt").write_text(gold_text("circb"), encoding="utf8")
    dev_docs = read_starsem_docs(root / "corpus" / "dev.txt", n_sents=4)
    write_docbin(dev_docs, root / "corpus" / "dev.spacy")
    test_docs = (read_starsem_docs(root / "corpus" / "test_a.txt", n_sents=4)
                 + read_starsem_docs(root / "corpus" / "test_b.txt", n_sents=4))
    write_docbin(test_docs, root / "corpus" / "test.spacy")
    gold = {"dev": [root / "corpus" / "dev.spacy"],
            "test": [root / "corpus" / "test_a.txt", root / "corpus" / "test_b.txt"]}
    for split, docs in (("dev", dev_docs), ("test", test_docs)):
        m = root / "metrics"
        run_punct_baseline(root / "corpus" / f"{split}.spacy", m / f"punct_baseline_{split}.txt",
                           m / f"punct_baseline_{split}.json", run_script)
        write_system(docs, perturb(docs, True), m / f"model_end_to_end_{split}.txt",
                     m / f"model_end_to_end_{split}.json", False)
        write_system(docs, perturb(docs, False), m / f"model_gold_cues_{split}.txt",
                     m / f"model_gold_cues_{split}.json", True)
    (root / "meta.json").write_text(json.dumps({"machine": "test box", "duration": "1 s", "seed": 7,
                                                "config": "negation_cnn.cfg"}), encoding="utf8")
    return {"root": root, "gold": gold}


def argv(root: Path, gold: Dict[str, List[Path]], out: Optional[Path] = None) -> List[str]:
    return (["--metrics-dir", str(root / "metrics"), "--gold-dev", *map(str, gold["dev"]),
             "--gold-test", *map(str, gold["test"]), "--meta", str(root / "meta.json"),
             "--out-dir", str(out or root / "results")])


def report(run_script: RunScript, *args: str) -> Any:
    return run_script("report.py", *args)


@pytest.fixture(scope="module")
def project(tmp_path_factory: Any, run_script: RunScript) -> Dict[str, Any]:
    return make_project(tmp_path_factory.mktemp("proj"), run_script)


@pytest.fixture(scope="module")
def built(project: Dict[str, Any], run_script: RunScript) -> Dict[str, Any]:
    proc = report(run_script, *argv(project["root"], project["gold"]))
    assert proc.returncode == 0, proc.stderr
    out = project["root"] / "results"
    return {**project, "out": out, "doc": json.loads((out / "cdsco.json").read_text(encoding="utf8")),
            "md": (out / "cdsco.md").read_text(encoding="utf8")}


def _copy(project: Dict[str, Any], tmp_path: Path) -> Tuple[Path, Dict[str, List[Path]]]:
    root = tmp_path / "p"
    shutil.copytree(project["root"], root, ignore=shutil.ignore_patterns("results"))
    gold = {k: [root / p.relative_to(project["root"]) for p in v] for k, v in project["gold"].items()}
    return root, gold


# --- the report ------------------------------------------------------------------------------

def test_json_shape_is_exact(built: Dict[str, Any]) -> None:
    doc = built["doc"]
    assert set(doc) == {"meta", "dev", "test"}
    for split in ("dev", "test"):
        assert set(doc[split]) == set(SYSTEMS)
        for system in SYSTEMS:
            entry = doc[split][system]
            assert set(entry) == ENTRY_KEYS
            assert set(entry["cue_f_by_type"]) == {"normal", "affixal", "multiword"}
            assert set(entry["faireval_counts"]) == {"TP", "FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE"}
            for key in SCORER_KEY:
                assert 0.0 <= entry[key] <= 1.0


def test_numbers_equal_the_input_scores(built: Dict[str, Any]) -> None:
    doc, root = built["doc"], built["root"]
    for split in ("dev", "test"):
        for system in SYSTEMS:
            data = json.loads((root / "metrics" / f"{system}_{split}.json").read_text(encoding="utf8"))
            entry, scores = doc[split][system], data["scores"]
            for key, skey in SCORER_KEY.items():
                assert entry[key] == scores[skey], (split, system, key)
            for t, v in entry["cue_f_by_type"].items():
                assert v == scores["neg_cue_per_type"][t]["f"]
            # the stand-in systems keep the gold tags, so the file-based FairEval of the
            # evaluate --json detail agrees with the scorer's: an independent source
            fair = data["detail"]["faireval"]["fair"]
            assert entry["faireval_counts"] == {k: fair[k] for k in FAIR_TYPES}
            assert entry["faireval_counts"]["BE"] == sum(entry["faireval_counts"][k] for k in ("BES", "BEL", "BEO"))
    # the systems differ, so copying the wrong file would show
    e2e, gc = doc["test"]["model_end_to_end"], doc["test"]["model_gold_cues"]
    assert e2e["cues_b_f"] < 1.0 == gc["cues_b_f"]
    assert e2e["faireval_counts"]["FP"] > 0 and e2e["faireval_counts"]["FN"] > 0
    assert doc["test"]["punct_baseline"]["nis_tok_f"] != gc["nis_tok_f"]


def test_meta(built: Dict[str, Any]) -> None:
    meta = built["doc"]["meta"]
    assert meta["run"] == {"machine": "test box", "duration": "1 s", "seed": 7, "config": "negation_cnn.cfg"}
    test_set = meta["test_set"]
    assert "cardboard" in test_set["description"] and "circle" in test_set["description"]
    assert "neither" in test_set["description"] and "official" in test_set["description"]
    assert test_set["official"] == {"sentences": 1089, "negation_instances": 264}
    # two copies of six sentences with eight instances
    assert (test_set["sentences"], test_set["negation_instances"]) == (12, 16)
    assert test_set["matches_official_release"] is False
    assert meta["dev_set"]["sentences"] == 6 and meta["dev_set"]["negation_instances"] == 8
    assert meta["inputs"]["test"]["model_gold_cues"]["gold_cues"] is True
    assert "Sineva" in meta["citation"]
    rows = {row["system"]: row["scores_pct"] for row in meta["published"]["rows"]}
    assert list(rows) == ["Punct-BL", "NegBERT (XLM-R-large)", "BiLSTM-Tagger (XLM-R-large)",
                          "DP-direct (XLM-R-large)", "DP-nested (XLM-R-large)",
                          "DP-direct-synt (XLM-R-large)", "DP-nested-synt (XLM-R-large)"]
    bilstm = rows["BiLSTM-Tagger (XLM-R-large)"]
    assert {k: bilstm[k] for k in ("cues_b_f", "scm_b_f", "st_f", "nis_tok_f")} == {
        "cues_b_f": 92.3, "scm_b_f": 70.0, "st_f": 88.0, "nis_tok_f": 88.2}


def test_markdown(built: Dict[str, Any]) -> None:
    md, doc = built["md"], built["doc"]
    for head in ("Cues-B F1", "SCM F1", "SCM-B F1", "Scope-tokens P", "Scope-tokens R", "Scope-tokens F1",
                 "NIS_tok P", "NIS_tok R", "NIS_tok F1", "NIS_ex F1", "FairEval trad. F1", "FairEval fair F1",
                 "FairEval weighted F1", "BES", "LBE", "affixal (gold 2)", "multiword (gold 2)", "normal (gold 12)"):
        assert head in md
    assert "## Test (Cardboard Box + Red Circle)" in md and "## Dev (Wisteria Lodge)" in md
    assert "Negation-Instance Based Evaluation of End-to-End Negation Resolution" in md
    assert "Sineva, Stefan Grünewald, Annemarie Friedrich and Jonas Kuhn (2021)" in md and "CoNLL 2021" in md
    row = next(line for line in md.splitlines() if line.startswith("| BiLSTM-Tagger"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:] == ["92.3", "79.6", "70.0", "90.8", "85.4", "88.0", "90.3", "86.3", "88.2"]
    row = next(line for line in md.splitlines() if line.startswith("| Punct-BL, published"))
    assert [c.strip() for c in row.strip("|").split("|")][1:] == [
        "100.0", "17.0", "9.9", "89.8", "62.0", "73.3", "93.3", "58.8", "72.1"]
    assert "not available" not in md
    e2e = doc["test"]["model_end_to_end"]
    row = next(line for line in md.splitlines() if line.startswith("| spacy-negation, end to end"))
    assert f"| {100 * e2e['nis_tok_f']:.2f} |" in row and f"| {100 * e2e['cues_b_f']:.2f} |" in row
    assert "token.is_punct" in md and "gold-POS rule" in md
    assert "differs from the official release" in md  # the synthetic test set is not the release
    assert "machine: test box" in md and "seed: 7" in md


def _png_size(path: Path) -> Tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_plots_exist_and_are_not_trivial(built: Dict[str, Any]) -> None:
    for name in OUTPUTS[2:]:
        path = built["out"] / name
        width, height = _png_size(path)
        assert width >= 500 and height >= 350, name
        assert path.stat().st_size > 15_000, name  # text, bars and lines, not an empty canvas
    assert {p.name for p in built["out"].iterdir()} == set(OUTPUTS)  # no temporary files left


def test_prints_a_line_per_step(project: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    proc = report(run_script, *argv(project["root"], project["gold"], tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("[report] read gold test") for line in lines)
    assert sum("re-score" in line for line in lines) == 6
    assert sum(line.startswith("[report] plot ") for line in lines) == 3
    assert all(line.rstrip().endswith(" s)") for line in lines)


# --- failures ---------------------------------------------------------------------------------

def test_missing_inputs_are_named_and_nothing_is_written(project: Dict[str, Any], tmp_path: Path,
                                                         run_script: RunScript) -> None:
    root, gold = _copy(project, tmp_path)
    (root / "metrics" / "model_gold_cues_dev.txt").unlink()
    (root / "metrics" / "punct_baseline_test.json").unlink()
    proc = report(run_script, *argv(root, gold))
    assert proc.returncode == 1
    err = proc.stderr
    assert "[NEG-E130]" in err and "model_gold_cues_dev.txt" in err and "punct_baseline_test.json" in err
    assert "evaluate_model.py" in err
    assert not (root / "results").exists()


def test_stale_system_file_is_an_error(project: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root, gold = _copy(project, tmp_path)
    m = root / "metrics"
    shutil.copy(m / "model_gold_cues_test.txt", m / "model_end_to_end_test.txt")
    proc = report(run_script, *argv(root, gold))
    assert proc.returncode == 1
    err = proc.stderr
    assert "[NEG-E743]" in err and "model_end_to_end_test.json does not match" in err and "neg_cue_b_f" in err
    assert not (root / "results").exists()


def test_system_file_of_another_split_is_an_error(project: Dict[str, Any], tmp_path: Path,
                                                  run_script: RunScript) -> None:
    root, gold = _copy(project, tmp_path)
    m = root / "metrics"
    shutil.copy(m / "model_gold_cues_test.txt", m / "model_gold_cues_dev.txt")
    proc = report(run_script, *argv(root, gold))
    assert proc.returncode == 1
    assert "[NEG-E740]" in proc.stderr and "model_gold_cues_dev.txt: 12 sentences, but the gold" in proc.stderr


def test_token_mismatch_names_file_and_line(project: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root, gold = _copy(project, tmp_path)
    path = root / "metrics" / "model_gold_cues_dev.txt"
    lines = path.read_text(encoding="utf8").split("\n")
    k = next(i for i, line in enumerate(lines) if "\tcame\t" in line)
    lines[k] = lines[k].replace("\tcame\t", "\twent\t")
    path.write_text("\n".join(lines), encoding="utf8")
    proc = report(run_script, *argv(root, gold))
    assert proc.returncode == 1
    err = proc.stderr
    assert "[NEG-E741]" in err and f"model_gold_cues_dev.txt:{k + 1}:" in err
    assert "'went'" in err and "'came'" in err


def test_swapped_gold_cues_flag_is_an_error(project: Dict[str, Any], tmp_path: Path, run_script: RunScript) -> None:
    root, gold = _copy(project, tmp_path)
    path = root / "metrics" / "model_end_to_end_dev.json"
    data = json.loads(path.read_text(encoding="utf8"))
    data["gold_cues"] = True
    path.write_text(json.dumps(data), encoding="utf8")
    proc = report(run_script, *argv(root, gold))
    assert proc.returncode == 1
    assert "are the files swapped" in proc.stderr


# --- scope-length buckets: a hand-checked case -------------------------------------------------

def _hand_case(tmp_path: Path) -> Tuple[Any, Any]:
    gold = tmp_path / "gold.txt"
    gold.write_text("\n".join([
        sem_sentence("d", 0, S1, [
            {"cue": {2: "not"}, "scope": {0: "He", 1: "did", 3: "go", 4: ","}},   # length 3 (',' is punct)
            {"cue": {8: "never"}, "scope": {9: "happy"}}]),                        # length 1
        sem_sentence("d", 1, S2, [{"cue": {0: "Neither", 2: "nor"}, "scope": {1: "he", 3: "she", 4: "came"}}]),
        sem_sentence("d", 2, S3, [{"cue": {0: "Nothing"}}]),                        # length 0
    ]), encoding="utf8")
    system = tmp_path / "system.txt"
    system.write_text("\n".join([
        sem_sentence("x", 0, S1, [
            {"cue": {2: "not"}, "scope": {1: "did", 3: "go"}},      # NIS p 2/2, r 2/3; ST tp 2 fn 1
            {"cue": {8: "never"}, "scope": {7: "was", 9: "happy"}},  # NIS p 1/2, r 1; ST tp 1 fp 1
            {"cue": {5: "and"}, "scope": {6: "she"}}]),              # matches no gold instance
        # cue 'Neither' alone: no NIS match (cue differs), but the *SEM scorer pairs it
        sem_sentence("x", 1, S2, [{"cue": {0: "Neither"}, "scope": {1: "he", 4: "came"}}]),  # ST tp 2 fn 1
        sem_sentence("x", 2, S3, [{"cue": {0: "Nothing"}, "scope": {1: "."}}]),  # both empty: p = r = 1
    ]), encoding="utf8")
    ref = breakdowns.build_reference([gold])
    ev = breakdowns.evaluate_system(ref, breakdowns.read_system(system, ref))
    return ref, ev


def test_buckets_hand_checked(tmp_path: Path) -> None:
    ref, ev = _hand_case(tmp_path)
    assert breakdowns.gold_lengths(ref) == [[3, 1], [3], [0]]
    rows = {r.label: r for r in breakdowns.bucket_rows(ev)}
    assert [r.gold_instances for r in breakdowns.bucket_rows(ev)] == [1, 1, 2, 0, 0, 0]
    # 0: 'Nothing', both scopes empty -> NIS 1/1; no gold scope token -> scope tokens undefined
    assert rows["0"].nis_tok == {"p": 1.0, "r": 1.0, "f": 1.0} and rows["0"].scope_tokens is None
    # 1-2: 'never': P = 0.5 / 1, R = 1 / 1; scope tokens tp 1, fp 1, fn 0
    assert rows["1-2"].nis_tok["p"] == pytest.approx(0.5) and rows["1-2"].nis_tok["r"] == pytest.approx(1.0)
    assert rows["1-2"].nis_tok["f"] == pytest.approx(2 / 3)
    assert rows["1-2"].scope_tokens == pytest.approx({"p": 0.5, "r": 1.0, "f": 2 / 3})
    # 3-5: 'not' (matched: p 1, r 2/3) and 'Neither...nor' (unmatched: r 0):
    # P = 1 / 1, R = (2/3 + 0) / 2 = 1/3, F1 = 0.5
    assert rows["3-5"].nis_tok == pytest.approx({"p": 1.0, "r": 1 / 3, "f": 0.5})
    # scope tokens: 'not' tp 2 fn 1, 'Neither' (paired by the shared cue token) tp 2 fn 1
    assert rows["3-5"].scope_tokens == pytest.approx({"p": 1.0, "r": 4 / 6, "f": 0.8})
    assert rows["6-10"].nis_tok is None and rows["6-10"].scope_tokens is None
    # the false 'and' instance: unattributed in both families; 'Neither' alone only in NIS
    assert ev.unattributed_st_fp == 1
    assert ev.unattributed_nis_system == 2


def test_bucket_of_boundaries() -> None:
    assert [breakdowns.bucket_of(n) for n in (0, 1, 2, 3, 5, 6, 10, 11, 20, 21, 500)] == \
        [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    with pytest.raises(ValueError, match=r"\[NEG-E742\]"):
        breakdowns.bucket_of(-1)


def test_gold_cue_type_counts(tmp_path: Path) -> None:
    ref, _ = _hand_case(tmp_path)
    assert breakdowns.gold_cue_type_counts(ref) == {"normal": 3, "affixal": 0, "multiword": 1}


def test_consistency_check_names_the_differing_scores(tmp_path: Path) -> None:
    _, ev = _hand_case(tmp_path)
    breakdowns.check_consistency(ev.scores, ev.scores, Path("s.json"), Path("s.txt"))
    off = {**ev.scores, "neg_st_f": ev.scores["neg_st_f"] + 1e-6}
    with pytest.raises(ValueError, match=r"\[NEG-E743\] s\.json does not match s\.txt.*neg_st_f"):
        breakdowns.check_consistency(off, ev.scores, Path("s.json"), Path("s.txt"))


def test_evaluate_is_the_evaluate_command_json(project: Dict[str, Any]) -> None:
    import subprocess
    import sys

    from spacy_negation.analysis import evaluate

    gold, system = project["root"] / "corpus" / "dev.txt", project["root"] / "metrics" / "model_end_to_end_dev.txt"
    proc = subprocess.run([sys.executable, "-m", "spacy_negation", "evaluate", str(gold), str(system), "--json"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    result = evaluate(gold, system)
    assert json.loads(json.dumps(result)) == json.loads(proc.stdout)
    assert result["nis"]["counts"]["system"] > result["nis"]["counts"]["matched"] > 0
    assert evaluate(gold, system, ["nis"]).keys() == {"nis"}


def _assert_buckets_add_up(ev: Any) -> None:
    tot_st, tot_nis = ev.total_starsem.scope_tokens, ev.total_nis
    assert sum(c.scope_tokens.tp for c in ev.bucket_starsem) == tot_st.tp
    assert sum(c.scope_tokens.fn for c in ev.bucket_starsem) == tot_st.fn
    assert sum(c.scope_tokens.fp for c in ev.bucket_starsem) + ev.unattributed_st_fp == tot_st.fp
    assert sum(c.gold for c in ev.bucket_nis) == tot_nis.gold
    assert sum(c.matched for c in ev.bucket_nis) == tot_nis.matched
    assert sum(c.system for c in ev.bucket_nis) + ev.unattributed_nis_system == tot_nis.system
    assert sum(c.sum_p for c in ev.bucket_nis) == pytest.approx(tot_nis.sum_p)
    assert sum(c.sum_r for c in ev.bucket_nis) == pytest.approx(tot_nis.sum_r)


def test_buckets_add_up_to_the_corpus_counts(tmp_path: Path) -> None:
    _, ev = _hand_case(tmp_path)
    _assert_buckets_add_up(ev)


def test_rescoring_equals_the_spacy_scorer(project: Dict[str, Any]) -> None:
    """The re-scoring from the *SEM files gives score_negations' numbers (all systems)."""
    root = project["root"]
    ref = breakdowns.build_reference(project["gold"]["test"])
    for system in SYSTEMS:
        ev = breakdowns.evaluate_system(ref, breakdowns.read_system(root / "metrics" / f"{system}_test.txt", ref))
        scores = json.loads((root / "metrics" / f"{system}_test.json").read_text(encoding="utf8"))["scores"]
        for key in SCORER_KEY.values():
            assert ev.scores[key] == pytest.approx(scores[key], abs=1e-9), (system, key)
        _assert_buckets_add_up(ev)


@pytest.mark.slow
def test_real_dev_baseline_rescoring_and_buckets(cdsco_dir: Path, tmp_path: Path, run_script: RunScript) -> None:
    """On the real CD-SCO dev set: the punctuation baseline re-scored from its *SEM file
    equals the spaCy scorer, and the scope-length buckets add up."""
    gold_txt = cdsco_dir / "SEM-2012-SharedTask-CD-SCO-dev-09032012.txt"
    write_docbin(read_starsem_docs(gold_txt), tmp_path / "dev.spacy")
    run_punct_baseline(tmp_path / "dev.spacy", tmp_path / "bl.txt", tmp_path / "bl.json", run_script)
    ref = breakdowns.build_reference([tmp_path / "dev.spacy"])
    assert (len(ref.sentences), ref.n_instances) == (787, 173)
    ev = breakdowns.evaluate_system(ref, breakdowns.read_system(tmp_path / "bl.txt", ref))
    scores = json.loads((tmp_path / "bl.json").read_text(encoding="utf8"))["scores"]
    for key in SCORER_KEY.values():
        assert ev.scores[key] == pytest.approx(scores[key], abs=1e-9), key
    _assert_buckets_add_up(ev)
    assert sum(r.gold_instances for r in breakdowns.bucket_rows(ev)) == 173

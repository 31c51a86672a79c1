"""data/clinical: the clinical negation set is well formed and built from its annotated
source; bench/bench_clinical.py counts a hand case right; bench/rule_runner.py takes
multi-token targets."""
import json
import re
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
import spacy

from util import REPO, load_module

SET_DIR = REPO / "data" / "clinical"

#: The phenomena issue #26 names, each with at least one counter-example pattern.
REQUIRED_PATTERNS = {
    "denial", "denial-counter", "no-list", "no-initial", "negative-for", "positive-for", "without",
    "without-own", "no-evidence-of", "free-of", "ruled-out", "rule-out", "resolved", "resolved-counter",
    "absence-of", "presence-of", "minus-ve", "plus-ve", "pseudo", "termination", "header", "affix",
    "preceding-clause", "hypothetical",
}


@pytest.fixture(scope="module")
def build() -> ModuleType:
    return load_module(SET_DIR / "build.py", "clinical_build")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_module(REPO / "bench" / "bench_clinical.py", "bench_clinical")


@pytest.fixture(scope="module")
def records() -> list:
    with open(SET_DIR / "clinical.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_set_is_built_from_its_source(build, records):
    assert build.main(["--check"]) == 0
    assert records == build.parse_notes((SET_DIR / "notes.txt").read_text(encoding="utf-8"))


def test_offsets_ids_and_counts(records):
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids))
    for rec in records:
        assert rec["split"] in ("dev", "test") and rec["concepts"]
        last_end = 0
        for con in rec["concepts"]:
            assert 0 <= con["start"] < con["end"] <= len(rec["text"])
            assert rec["text"][con["start"]:con["end"]] == con["text"]
            assert con["start"] >= last_end, f"{rec['id']}: concepts overlap or are out of order"
            assert con["text"] == con["text"].strip() and isinstance(con["negated"], bool)
            last_end = con["end"]
    labels = Counter((r["split"], c["negated"]) for r in records for c in r["concepts"])
    assert sum(labels.values()) >= 400
    for split in ("dev", "test"):
        assert labels[split, True] > 0 and labels[split, False] > 0
    dev_share = (labels["dev", True] + labels["dev", False]) / sum(labels.values())
    assert 0.35 <= dev_share <= 0.45


def test_split_by_note(records):
    """Every sentence of a note (sentence group) lies in one split."""
    splits = {}
    for rec in records:
        note = rec["id"].rsplit("-", 1)[0]
        assert splits.setdefault(note, rec["split"]) == rec["split"], f"note {note} is in both splits"
    assert set(splits.values()) == {"dev", "test"}


def test_concepts_align_with_spacy_tokens(records):
    nlp = spacy.blank("en")
    for rec in records:
        doc = nlp.make_doc(rec["text"])
        for con in rec["concepts"]:
            assert doc.char_span(con["start"], con["end"]) is not None, (rec["id"], con["text"])


def test_patterns_and_counter_examples(records):
    by_split = Counter((r["pattern"], r["split"]) for r in records)
    assert {p for p, _ in by_split} == REQUIRED_PATTERNS | {"plain-negation", "plain-affirmed"}
    for pattern in REQUIRED_PATTERNS:
        assert by_split[pattern, "dev"] and by_split[pattern, "test"], pattern
    # the pharynx decision: the site that carries its own "without" is not negated, its finding is
    (rec,) = [r for r in records if r["text"] == "Pharynx is pink without exudates."]
    assert [(c["text"], c["negated"]) for c in rec["concepts"]] == [("Pharynx", False), ("exudates", True)]


def test_readme_table_is_current(build, records):
    readme = (SET_DIR / "README.md").read_text(encoding="utf-8")
    assert "\n".join(build.pattern_table(records)) in readme
    total = sum(len(r["concepts"]) for r in records)
    assert f"{len(records)} sentences, {total} concepts" in readme


@pytest.mark.parametrize("text,message", [
    ("dev | No [fever]-.", r"notes\.txt:1: a sentence before the first note header"),
    ("== n1 train ed\nx | No [fever]-.", r"notes\.txt:1: split must be one of"),
    ("== n1 dev ed\nNo [fever]-.", r"notes\.txt:2: a sentence line is 'PATTERN \| TEXT'"),
    ("== n1 dev ed\nx | No [fever].", r"notes\.txt:2: an unclosed or unlabelled concept mark"),
    ("== n1 dev ed\nx | No fever.", r"notes\.txt:2: a sentence without concepts"),
    ("== n1 dev\nx | No [fever]-.", r"notes\.txt:1: a note header is"),
])
def test_source_errors(build, text, message):
    with pytest.raises(ValueError, match=message):
        build.parse_notes(text)


def test_bench_counts_a_hand_case(bench):
    records = [
        {"id": "a-01", "split": "dev", "pattern": "denial", "text": "Denies chest pain, cough.",
         "concepts": [{"start": 7, "end": 17, "text": "chest pain", "negated": True},
                      {"start": 19, "end": 24, "text": "cough", "negated": True}]},
        {"id": "a-02", "split": "dev", "pattern": "pseudo", "text": "No change in the effusion.",
         "concepts": [{"start": 17, "end": 25, "text": "effusion", "negated": False}]},
        {"id": "b-01", "split": "test", "pattern": "denial", "text": "Denies pain.",
         "concepts": [{"start": 7, "end": 11, "text": "pain", "negated": True}]},
    ]
    sentences = bench.task_sentences(records, "dev")
    assert [s["id"] for s in sentences] == ["a-01", "a-02"]
    first = sentences[0]
    assert first["targets"] == [[1, 3], [4, 5]] and first["gold"] == [True, True]
    assert [" ".join(first["words"][a:b]) for a, b in first["targets"]] == ["chest pain", "cough"]
    # a system that misses 'cough' and negates 'effusion'
    pred = [[True, False], [True]]
    errors = bench.pattern_errors(sentences, pred)
    assert errors == {"denial": {"concepts": 2, "negated": 2, "fp": 0, "fn": 1},
                      "pseudo": {"concepts": 1, "negated": 0, "fp": 1, "fn": 0}}
    bvr = bench.vs_rules()
    rows = bvr.counts([s["gold"] for s in sentences], pred)
    assert rows == [(1, 0, 1), (0, 1, 0)]
    e = bvr.entry(rows, words=10, seconds=1.0)
    assert (e["p"], e["r"], e["f"]) == (0.5, 0.5, 0.5)
    results = {"tool": {**e, "errors_by_pattern": errors}}
    md = bench.render_markdown(results, {"split": "dev"})
    assert "| tool | 50.0 | 50.0 | 50.0 |" in md and "| pseudo | 1 | 0 | 1 / 0 |" in md
    assert "this run has no model rows" in md
    assert "no model rows" not in bench.render_markdown(results, {"models": {"m": "path"}})
    bad = [{**records[2], "concepts": [{"start": 7, "end": 10, "text": "pai", "negated": True}]}]
    with pytest.raises(ValueError, match=r"b-01: concept 'pai' .* does not align"):
        bench.task_sentences(bad, "test")
    with pytest.raises(ValueError, match="no sentence of split 'test'"):
        bench.task_sentences(records[:2], "test")


def test_rule_runner_targets():
    runner = load_module(REPO / "bench" / "rule_runner.py", "rule_runner")
    nlp = spacy.blank("en")
    doc = nlp.make_doc("No chest pain or cough.")
    one, many = runner.target_span(doc, 4), runner.target_span(doc, [1, 3])
    assert (one.text, one.label_) == ("cough", runner.LABEL)
    assert (many.text, many.label_) == ("chest pain", runner.LABEL)


def test_docs_quote_the_committed_clinical_run():
    """docs/clinical_model.md's cue-list sentence quotes results/clinical_invented.json
    (bench/bench_clinical.py), and 'level with' holds: the paired interval against the best
    rule tool includes 0."""
    repo = Path(__file__).resolve().parents[2]
    results = json.loads((repo / "results" / "clinical_invented.json").read_text(encoding="utf-8"))
    readme = " ".join((repo / "docs" / "clinical_model.md").read_text(encoding="utf-8").split())
    alone, listed = results["cdsco"]["f"], results["cdsco + en_clinical"]["f"]
    assert f"scores F1 {100 * alone:.1f} alone and {100 * listed:.1f} with `en_clinical`" in readme
    vs = results["cdsco + en_clinical"]["vs_best_rule"]
    assert vs["tool"] == "negspacy_en_clinical" and vs["ci_low"] <= 0 <= vs["ci_high"]
    assert re.search(r"level with negspacy's clinical termset", readme)


def test_docs_quote_the_clinical_model_run():
    """docs/clinical_model.md's clinical-model sentence quotes results/clinical_invented.json: F1 of
    the packaged configuration (the clinical model with en_clinical, chosen on the dev split),
    the best rule tool's F1 and the paired interval, which must exclude 0 for 'ahead of'."""
    repo = Path(__file__).resolve().parents[2]
    results = json.loads((repo / "results" / "clinical_invented.json").read_text(encoding="utf-8"))
    readme = " ".join((repo / "docs" / "clinical_model.md").read_text(encoding="utf-8").split())
    ours = results["clinical + en_clinical"]
    vs = ours["vs_best_rule"]
    rule = results[vs["tool"]]["f"]
    assert vs["ci_low"] > 0
    assert (f"scores F1 {100 * ours['f']:.1f} there, ahead of negspacy's {100 * rule:.1f} "
            f"(paired 95% CI of the difference +{100 * vs['ci_low']:.1f} to "
            f"+{100 * vs['ci_high']:.1f})") in readme
    assert "not a headline" in readme  # the set is the project's own
    dev = json.loads((repo / "results" / "clinical_invented_dev.json").read_text(encoding="utf-8"))
    assert dev["clinical + en_clinical"]["f"] >= dev["clinical"]["f"]

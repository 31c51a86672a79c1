"""bench/bench_vs_rules.py: the entity-negation task, its counting and a run on a tiny model
(the rule tools need their own virtualenvs and run only in the real benchmark)."""
import json
from pathlib import Path
from types import ModuleType

import pytest
import spacy
from spacy.tokens import DocBin

from util import REPO, gold_sentences, load_module, make_reference

from spacy_negation import register_extensions


def _bench() -> ModuleType:
    return load_module(REPO / "bench" / "bench_vs_rules.py", "bench_vs_rules")


def test_task_sentences_and_counts():
    bench = _bench()
    register_extensions()
    vocab = spacy.blank("en").vocab
    w = ["The", "dog", "did", "not", "bark", "at", "strangers", "."]
    doc = make_reference(vocab, w, [{"cue": [(3, 0, 3)], "scope": [(i, 0, len(w[i])) for i in (1, 2, 4)]}])
    doc[1].tag_, doc[4].tag_, doc[6].tag_, doc[3].tag_ = "NN", "VB", "NNS", "RB"
    (rec,) = bench.task_sentences([doc], "bioscope")
    # content words not on the stop list, the cue 'not' left out
    assert [w[i] for i in rec["targets"]] == ["dog", "bark", "strangers"]
    assert rec["gold"] == [True, True, False]
    (rec,) = bench.task_sentences([doc], "cdsco")  # nouns by gold tag
    assert [w[i] for i in rec["targets"]] == ["dog", "strangers"] and rec["gold"] == [True, False]
    rows = bench.counts([[True, True, False], [False]], [[True, False, True], [True]])
    assert rows == [(1, 1, 1), (0, 1, 0)]
    with pytest.raises(ValueError, match="targets"):
        bench.counts([[True]], [[True, False]])
    e = bench.entry(rows, words=10, seconds=2.0)
    assert (e["tp"], e["fp"], e["fn"]) == (1, 2, 1) and e["p"] == pytest.approx(1 / 3)
    assert e["r"] == pytest.approx(0.5) and e["words_per_second"] == 5.0
    assert e["ci_low"] <= e["f"] <= e["ci_high"]


def test_bench_on_a_tiny_model(tmp_path: Path, trained_cnn_dir: Path):
    bench = _bench()
    nlp = spacy.blank("en")
    docs = [make_reference(nlp.vocab, words, negs) for words, negs in gold_sentences()]
    gold_path = tmp_path / "gold.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(gold_path)
    out = tmp_path / "results"
    with pytest.raises(SystemExit):
        bench.main(["--split", f"sfu={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--repeat", "0"])
    assert bench.main(["--split", f"sfu={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--repeat", "2",
                       "--recommend", "sfu=tiny", "--fast", "tiny", "--rules", "none", "--out-dir", str(out)]) == 0
    results = json.loads((out / "vs_rules.json").read_text())
    tiny = results["sfu"]["tiny"]
    # the tiny model reproduces its training sentences, so every target is answered right
    gold = [r["gold"] for r in bench.task_sentences(docs, "sfu")]
    n_negated = sum(sum(g) for g in gold)
    assert n_negated > 0
    assert (tiny["tp"], tiny["fp"], tiny["fn"]) == (n_negated, 0, 0)
    assert tiny["f"] == 1.0 and tiny["words_per_second"] > 0
    assert results["sfu"]["recommended"]["model"] == "tiny" and results["sfu"]["fast"]["model"] == "tiny"
    assert "| recommended (tiny) | 100.0 | 100.0 | 100.0 |" in (out / "vs_rules.md").read_text()
    assert tiny["timed_runs"] == 2 and "fastest of 2" in (out / "vs_rules.md").read_text()
    # --update keeps the systems this run does not measure, marked with their run
    results["sfu"]["old_model"] = {**tiny, "f": 0.5}
    results["cdsco"] = {"old_model": {**tiny, "run": "2026-01-01"}}
    (out / "vs_rules.json").write_text(json.dumps(results))
    assert bench.main(["--split", f"sfu={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--rules", "none",
                       "--out-dir", str(out), "--update"]) == 0
    merged = json.loads((out / "vs_rules.json").read_text())
    assert merged["sfu"]["old_model"]["f"] == 0.5 and merged["cdsco"]["old_model"]["run"] == "2026-01-01"
    assert merged["sfu"]["tiny"]["run"] != "earlier run" and "updated" in (out / "vs_rules.md").read_text()


# --- is this word uncertain? ------------------------------------------------------------------
def _with_speculations(doc, speculations):
    """The doc with gold speculations (an empty list still marks it as annotated)."""
    doc._.speculations = speculations
    return doc


def test_uncertain_task_sentences_and_counts():
    """The uncertain task mirrors the negation one: the speculation cue tokens are left out
    of the targets (a negation cue is a target), a target is uncertain in a speculation scope."""
    bench = _bench()
    register_extensions()
    vocab = spacy.blank("en").vocab
    w = ["Absence", "of", "fever", "suggests", "remission", "today", "."]
    doc = make_reference(vocab, w, [{"cue": [(0, 0, 7)], "scope": [(2, 0, 5)]}])
    _with_speculations(doc, [{"cue": [doc[3]], "scope": [doc[0], doc[1], doc[2], doc[4]]}])
    assert bench.annotates_speculation([doc])
    (rec,) = bench.task_sentences([doc], "bioscope")
    assert [w[i] for i in rec["targets"]] == ["fever", "suggests", "remission", "today"]
    assert rec["gold"] == [True, False, False, False]
    # 'suggests' (the speculation cue) is not asked; 'Absence' (a negation cue) is
    assert [w[i] for i in rec["spec_targets"]] == ["Absence", "fever", "remission", "today"]
    assert rec["spec_gold"] == [True, True, True, False]
    plain = make_reference(vocab, ["The", "dog", "barked", "."], [])
    assert not bench.annotates_speculation([plain])
    (rec2,) = bench.task_sentences([plain], "bioscope")
    assert rec2["spec_targets"] == [1, 2] and rec2["spec_gold"] == [False, False]
    # the model's answers: ent._.uncertain of each speculation target, or None (absent)
    assert bench.uncertain_answers([plain], [rec2]) is None
    answer = make_reference(vocab, w, [])
    _with_speculations(answer, [{"cue": [answer[3]], "scope": [answer[4], answer[5]]}])
    assert bench.uncertain_answers([answer], [rec]) == [[False, False, True, True]]
    rows = bench.counts([rec["spec_gold"]], bench.uncertain_answers([answer], [rec]))
    assert rows == [(1, 1, 2)]
    e = bench.entry(rows, words=7, seconds=1.0)
    assert (e["p"], e["r"]) == (0.5, pytest.approx(1 / 3)) and e["ci_low"] <= e["f"] <= e["ci_high"]


def test_uncertain_word_paired_bootstrap_and_absent():
    bench = _bench()
    gold = [[True], [True, False], [True], [False]]
    model = [(1, 0, 0), (1, 0, 0), (1, 0, 0), (0, 1, 0)]
    context = [(0, 0, 1), (1, 1, 0), (0, 0, 1), (0, 0, 0)]
    word = bench.uncertain_word("m", model, context, gold)
    assert word["model_f"] == pytest.approx(6 / 7) and word["context_f"] == pytest.approx(0.4)
    assert word["diff"] == pytest.approx(6 / 7 - 0.4)
    assert word["ci_low"] <= word["diff"] <= word["ci_high"] and "absent" not in word
    assert (word["targets"], word["uncertain"]) == (5, 3)
    assert bench.uncertain_word("m", model, context, gold) == word  # seed 0: the same samples
    same = bench.uncertain_word("m", model, model, gold)
    assert (same["diff"], same["ci_low"], same["ci_high"]) == (0.0, 0.0, 0.0)
    # a side that is absent: null values and the note, not zeros
    absent = bench.uncertain_word("m", None, context, gold, ["m: no speculation"])
    assert absent["model_f"] is None and absent["diff"] is None and absent["ci_low"] is None
    assert absent["context_f"] == pytest.approx(0.4) and absent["absent"] == "m: no speculation"


def _spec_gold(nlp):
    """The tiny model's training sentences as gold docs annotating speculation: 'loudly' a
    hedge of 'dog barked', every other doc annotated with none."""
    docs = []
    for words, negs in gold_sentences():
        doc = make_reference(nlp.vocab, words, negs)
        spec = [{"cue": [doc[3]], "scope": [doc[1], doc[2]]}] if words[:3] == ["The", "dog", "barked"] else []
        docs.append(_with_speculations(doc, spec))
    return docs


def test_bench_uncertain_absent_for_a_model_without_speculation(tmp_path: Path, trained_cnn_dir: Path):
    bench = _bench()
    nlp = spacy.blank("en")
    gold_path = tmp_path / "gold.spacy"
    DocBin(docs=_spec_gold(nlp), store_user_data=True).to_disk(gold_path)
    plain_path = tmp_path / "plain.spacy"
    DocBin(docs=[make_reference(nlp.vocab, w, n) for w, n in gold_sentences()], store_user_data=True).to_disk(plain_path)
    out = tmp_path / "results"
    assert bench.main(["--split", f"sfu={gold_path}", "--split", f"cdsco={plain_path}", "--model",
                       f"tiny={trained_cnn_dir}", "--repeat", "1", "--rules", "none", "--out-dir", str(out)]) == 0
    results = json.loads((out / "vs_rules.json").read_text())
    assert results["sfu"]["tiny"]["uncertain"] == {"absent": bench.ABSENT_MODEL}
    word = results["sfu"]["uncertain_word"]
    assert word["model"] == "tiny" and word["model_f"] is None and word["context_f"] is None
    assert word["ci_low"] is None and bench.ABSENT_MODEL in word["absent"] and bench.ABSENT_CONTEXT in word["absent"]
    assert word["uncertain"] == 2
    # CD-SCO annotates no speculation: no uncertain column at all, the split's entry says why
    assert "uncertain" not in results["cdsco"]["tiny"]
    assert results["cdsco"]["uncertain_word"]["absent"] == bench.ABSENT_NO_GOLD.format(split="CD-SCO")
    md = (out / "vs_rules.md").read_text()
    assert "| tiny | absent | absent | absent |" in md and f"tiny: absent: {bench.ABSENT_MODEL}" in md
    assert "| uncertain_word" not in md  # not a system row
    # a NUBes split is refused: no rule tool handles Spanish
    with pytest.raises(SystemExit, match="no Spanish ConText rules"):
        bench.main(["--split", f"nubes={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--out-dir", str(out)])


def test_bench_uncertain_for_a_model_with_speculation(tmp_path: Path, trained_cnn_dir: Path, monkeypatch):
    """A model that resolves speculation (here: the tiny model with the gold speculations
    copied onto its docs) against ConText (faked: the rule tools need their own virtualenvs)."""
    bench = _bench()
    nlp = spacy.blank("en")
    gold_docs = _spec_gold(nlp)
    gold_path = tmp_path / "gold.spacy"
    DocBin(docs=gold_docs, store_user_data=True).to_disk(gold_path)
    by_words = {tuple(t.text for t in doc): doc for doc in gold_docs}
    original = bench.negation_docs

    def resolving(model, sentences, cue_patterns=None, repeat=1):
        docs, seconds = original(model, sentences, cue_patterns, repeat)
        for doc in docs:
            gold = by_words[tuple(t.text for t in doc)]
            doc._.speculations = [{"cue": [doc[p.i] for p in s.cue], "scope": [doc[p.i] for p in s.scope]}
                                  for s in gold._.speculations]
        return docs, seconds

    def fake_context(tool, sentences, venv_dir, repeat=1):
        return [[False] * len(r["targets"]) for r in sentences], 0.5, 100, {"medspacy": "fake"}

    def fake_context_uncertain(tool, sentences, venv_dir, repeat=1, targets="spec_targets"):
        return [[True] * len(r[targets]) for r in sentences], 0.25, 100, {"medspacy": "fake"}

    monkeypatch.setattr(bench, "negation_docs", resolving)
    monkeypatch.setattr(bench, "run_rule_tool", fake_context)
    monkeypatch.setattr(bench, "run_uncertain_tool", fake_context_uncertain)
    out = tmp_path / "results"
    assert bench.main(["--split", f"sfu={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--recommend", "sfu=tiny",
                       "--repeat", "1", "--rules", "medspacy_context", "--out-dir", str(out), "--rows"]) == 0
    results = json.loads((out / "vs_rules.json").read_text())
    tiny, context = results["sfu"]["tiny"]["uncertain"], results["sfu"]["medspacy_context"]["uncertain"]
    assert (tiny["tp"], tiny["fp"], tiny["fn"], tiny["f"]) == (2, 0, 0, 1.0) and tiny["words_per_second"] > 0
    n_targets = sum(len(r["spec_targets"]) for r in bench.task_sentences(gold_docs, "sfu"))
    assert (context["tp"], context["fp"], context["fn"]) == (2, n_targets - 2, 0)
    assert context["words_per_second"] == 400.0
    word = results["sfu"]["uncertain_word"]
    assert set(word) >= {"model_f", "context_f", "ci_low", "ci_high"} and "absent" not in word
    assert word["model"] == "tiny" and word["model_f"] == 1.0 and word["context_f"] == pytest.approx(context["f"])
    assert word["diff"] == pytest.approx(1.0 - context["f"]) and word["ci_low"] <= word["diff"] <= word["ci_high"]
    assert (word["targets"], word["uncertain"]) == (n_targets, 2)
    rows = json.loads((out / "vs_rules_rows.json").read_text())
    assert rows["sfu"]["uncertain_word"]["tiny"] == [list(r) for r in bench.counts(
        [r["spec_gold"] for r in bench.task_sentences(gold_docs, "sfu")],
        [r["spec_gold"] for r in bench.task_sentences(gold_docs, "sfu")])]
    md = (out / "vs_rules.md").read_text()
    assert "### Is this word uncertain? (speculation)" in md and "| tiny | 100.0 | 100.0 | 100.0 |" in md
    assert "tiny minus medspacy_context, F1 points" in md


def test_uncertain_runner_output(tmp_path: Path, monkeypatch):
    """bench/uncertain_runner.py's input and output (ConText itself runs only in its virtualenv:
    a stand-in pipeline marks an entity uncertain after 'possible')."""
    runner = load_module(REPO / "bench" / "uncertain_runner.py", "uncertain_runner")

    def stand_in(doc):
        doc.user_data["uncertain"] = [ent.start for ent in doc.ents if ent.start and doc[ent.start - 1].lower_ == "possible"]
        return doc

    class FakeNlp:
        def __init__(self):
            self.vocab = spacy.blank("en").vocab
            self.pipeline = [("stand_in", stand_in)]

    monkeypatch.setattr(runner.rule_runner, "build", lambda tool: (FakeNlp(), lambda ent: False, {"spacy": "x"}))
    monkeypatch.setitem(runner.UNCERTAIN, "medspacy_context", lambda ent: ent.start in ent.doc.user_data["uncertain"])
    src, dst = tmp_path / "in.jsonl", tmp_path / "out.json"
    src.write_text(json.dumps({"words": ["possible", "pneumonia", "and", "effusion"], "spaces": [True] * 3 + [False],
                               "targets": [1, [3, 4]]}) + "\n", encoding="utf-8")
    assert runner.main(["medspacy_context", str(src), str(dst), "2"]) == 0
    out = json.loads(dst.read_text())
    assert out["uncertain"] == [[True, False]] and out["negated"] == [[False, False]]
    assert out["words"] == 4 and out["seconds"] >= 0 and out["versions"] == {"spacy": "x"}
    with pytest.raises(SystemExit, match="answers no uncertainty"):
        runner.main(["negspacy_en", str(src), str(dst)])

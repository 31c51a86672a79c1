"""The spaCy scorers: registration, projection of predicted negations onto the reference
tokens by character offsets, agreement with the file-based metrics."""
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest
import spacy
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.vocab import Vocab

from spacy_negation import set_negations
from spacy_negation.corpora.starsem_docs import sentences_to_doc
from spacy_negation.metrics.faireval import negation_faireval
from spacy_negation.metrics.nis import count_nis, nis_scores
from spacy_negation.metrics.records import SentenceRecord, cells
from spacy_negation.metrics.starsem.evaluation import count_starsem, starsem_scores
import spacy_negation.scoring.counts as counts_module
import spacy_negation.scoring.scorers as scorers_module
from spacy_negation.scoring.doc_records import example_records
from spacy_negation.scoring.scorers import (
    make_faireval_spans_scorer, make_negation_cue_scorer, make_negation_scorer,
    make_negation_scope_scorer, score_negation_cues, score_negation_scopes, score_negations, score_span_examples,
)
from spacy_negation.corpora.starsem import read_starsem

from starsem_cases import CASES

FLOAT_KEYS = [f"neg_{p}_{m}" for p in ("cue", "cue_b", "scm", "scm_b", "scnm", "st", "full",
                                        "nis_cue", "nis_tok", "nis_ex", "nis_tm", "fair",
                                        "fair_weighted") for m in "prf"]
FLOAT_KEYS += ["neg_full_b_f", "neg_fair_trad_f"]

Part = Tuple[int, int, int]


def make_doc(vocab: Vocab, words: List[str], spaces: Optional[List[bool]] = None,
             negs: Sequence[Dict[str, List[Part]]] = (), tags: Optional[List[str]] = None,
             sent_starts: Optional[List[bool]] = None) -> Doc:
    doc = Doc(vocab, words=words, spaces=spaces, tags=tags, sent_starts=sent_starts)
    set_negations(doc, [dict(n) for n in negs])
    return doc


@pytest.fixture(scope="module")
def vocab() -> Vocab:
    return spacy.blank("en").vocab


def test_negation_counts_imports_no_spacy() -> None:
    code = "import sys, spacy_negation.scoring.counts; print('spacy' in sys.modules)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.stdout.strip() == "False", res.stderr


def test_registered_in_spacy_registry() -> None:
    make = spacy.registry.scorers.get("spacy-negation.negation_scorer.v1")
    assert make is make_negation_scorer
    assert make() is score_negations
    make_fe = spacy.registry.scorers.get("spacy-negation.faireval_spans_scorer.v1")
    assert make_fe is make_faireval_spans_scorer
    assert "Sineva" in make.__doc__ and "Ortmann" in make.__doc__ and "Morante" in make.__doc__


def test_entry_points_resolve_in_a_fresh_process() -> None:
    """spaCy finds both scorers through the package's entry points, without importing
    spacy_negation.scoring.scorers first (needs the ``spacy_scorers`` entry points in setup.cfg
    and ``pip install -e . --no-deps``)."""
    code = ("import spacy, sys\n"
            "f = spacy.registry.scorers.get('spacy-negation.negation_scorer.v1')\n"
            "g = spacy.registry.scorers.get('spacy-negation.faireval_spans_scorer.v1')\n"
            "c = spacy.registry.scorers.get('spacy-negation.negation_cue_scorer.v1')\n"
            "s = spacy.registry.scorers.get('spacy-negation.negation_scope_scorer.v1')\n"
            "print(f.__module__, g.__module__, c.__module__, s.__module__)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.split() == ["spacy_negation.scoring.scorers"] * 4


def _role(record: SentenceRecord, role: str, k: int = 0) -> List[Tuple[int, str]]:
    return list(cells(record.tokens, getattr(record.instances[k], role)))


def _check_all_one(scores: Dict[str, Any]) -> None:
    for key in FLOAT_KEYS:
        assert scores[key] == 1.0, key


def test_cannot_one_reference_token_two_predicted(vocab: Vocab) -> None:
    """Reference 'cannot' is one token with the affixal cue 'not'; the prediction splits
    it into 'can' + 'not'. Projection by offsets turns the predicted cue token into the
    part 'not' of the reference token and the scope token 'can' into the part 'can'."""
    ref = make_doc(vocab, ["I", "cannot", "go", "."], [True, True, False, False],
                   [{"cue": [(1, 3, 6)], "scope": [(0, 0, 1), (1, 0, 3), (2, 0, 2)], "event": [(2, 0, 2)]}])
    pred = make_doc(vocab, ["I", "can", "not", "go", "."], [True, False, True, False, False],
                    [{"cue": [(2, 0, 3)], "scope": [(0, 0, 1), (1, 0, 3), (3, 0, 2)], "event": [(3, 0, 2)]}])
    eg = Example(pred, ref)
    gold, system, dropped = example_records(eg)
    assert dropped == 0
    assert system[0].instances[0].cue == ((1, 3, 6),)
    assert _role(system[0], "scope") == [(0, "I"), (1, "can"), (2, "go")]
    assert gold[0].instances == system[0].instances
    scores = score_negations([eg])
    _check_all_one(scores)
    assert scores["neg_cue_per_type"]["affixal"] == {"p": 1.0, "r": 1.0, "f": 1.0}


def test_cannot_two_reference_tokens_one_predicted(vocab: Vocab) -> None:
    ref = make_doc(vocab, ["I", "can", "not", "go", "."], [True, False, True, False, False],
                   [{"cue": [(2, 0, 3)], "scope": [(0, 0, 1), (1, 0, 3), (3, 0, 2)]}])
    # predicted: the cue is the part 'not' of 'cannot' -> covers the reference token 'not'
    pred = make_doc(vocab, ["I", "cannot", "go", "."], [True, True, False, False],
                    [{"cue": [(1, 3, 6)], "scope": [(0, 0, 1), (1, 0, 3), (2, 0, 2)]}])
    _check_all_one({**score_negations([Example(pred, ref)]), "neg_full_b_f": 1.0})
    # a whole-token cue 'cannot' covers both reference tokens: wrong (partial) cue
    pred2 = make_doc(vocab, ["I", "cannot", "go", "."], [True, True, False, False],
                     [{"cue": [(1, 0, 6)], "scope": [(0, 0, 1), (2, 0, 2)]}])
    _, system, _ = example_records(Example(pred2, ref))
    assert _role(system[0], "cue") == [(1, "can"), (2, "not")]
    scores = score_negations([Example(pred2, ref)])
    assert scores["neg_cue_f"] == 0.0 and scores["neg_nis_cue_f"] == 0.0
    assert scores["neg_scnm_f"] == 0.0  # the scope misses 'can' (now a cue token)
    assert scores["neg_st_p"] == 1.0 and scores["neg_st_r"] == pytest.approx(2 / 3)
    assert scores["neg_cue_per_type"]["multiword"]["p"] == 0.0
    assert scores["neg_cue_per_type"]["normal"]["r"] == 0.0


def test_unhappy_affix(vocab: Vocab) -> None:
    ref = make_doc(vocab, ["He", "is", "unhappy", "."], [True, True, False, False],
                   [{"cue": [(2, 0, 2)], "scope": [(0, 0, 2), (1, 0, 2), (2, 2, 7)]}])
    # predicted tokens 'un' + 'happy': whole-token parts become parts of 'unhappy'
    pred = make_doc(vocab, ["He", "is", "un", "happy", "."], [True, True, False, False, False],
                    [{"cue": [(2, 0, 2)], "scope": [(0, 0, 2), (1, 0, 2), (3, 0, 5)]}])
    _, system, _ = example_records(Example(pred, ref))
    assert system[0].instances[0].cue == ((2, 0, 2),)
    assert _role(system[0], "scope") == [(0, "He"), (1, "is"), (2, "happy")]
    _check_all_one(score_negations([Example(pred, ref)]))
    # the whole word as cue: no exact cue match anywhere
    pred2 = make_doc(vocab, ["He", "is", "unhappy", "."], [True, True, False, False],
                     [{"cue": [(2, 0, 7)], "scope": [(0, 0, 2), (1, 0, 2)]}])
    scores = score_negations([Example(pred2, ref)])
    assert scores["neg_cue_r"] == scores["neg_nis_cue_r"] == scores["neg_cue_p"] == 0.0
    assert scores["neg_cue_b_p"] == 0.0
    assert scores["neg_cue_per_type"]["affixal"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    assert scores["neg_cue_per_type"]["normal"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    assert scores["neg_fair_trad_f"] < 1.0


def test_sentences_and_punctuation_rules(vocab: Vocab) -> None:
    """The cue in the second reference sentence is placed there; the *SEM rows use the
    reference tag (an apostrophe tagged POS is a scope token), NIS uses is_punct."""
    words = ["Yes", ".", "Holmes", "'", "hat", "was", "not", "there", "."]
    tags = ["UH", ".", "NNP", "POS", "NN", "VBD", "RB", "RB", "."]
    starts = [True, False, True, False, False, False, False, False, False]
    spaces = [False, True, False, True, True, True, True, False, False]
    ref = make_doc(vocab, words, spaces, [{"cue": [(6, 0, 3)], "scope": [(2, 0, 6), (3, 0, 1), (4, 0, 3), (5, 0, 3), (7, 0, 5)]}],
                   tags=tags, sent_starts=starts)
    pred = make_doc(vocab, words, spaces, [{"cue": [(6, 0, 3)], "scope": [(2, 0, 6), (4, 0, 3), (5, 0, 3), (7, 0, 5)]}])
    gold, system, _ = example_records(Example(pred, ref))
    assert [len(s.instances) for s in gold] == [0, 1] and [len(s.instances) for s in system] == [0, 1]
    assert _role(system[1], "cue") == [(4, "not")]
    assert list(gold[1].punct) == [False, False, False, False, False, False, True]
    assert list(gold[1].nis_punct) == [False, True, False, False, False, False, True]
    scores = score_negations([Example(pred, ref)])
    assert scores["neg_scm_f"] == 0.0          # "'" (POS) is a scope token for *SEM
    assert scores["neg_st_r"] == pytest.approx(4 / 5)
    assert scores["neg_nis_tok_f"] == 1.0      # is_punct for NIS
    # without tags, is_punct decides for *SEM as well
    ref_untagged = make_doc(vocab, words, spaces, [{"cue": [(6, 0, 3)], "scope": [(2, 0, 6), (3, 0, 1), (4, 0, 3), (5, 0, 3), (7, 0, 5)]}],
                            sent_starts=starts)
    assert score_negations([Example(pred, ref_untagged)])["neg_scm_f"] == 1.0


def test_whitespace_difference_and_text_difference(vocab: Vocab) -> None:
    ref = make_doc(vocab, ["It", "is", "not", "so"], [True, True, True, False],
                   [{"cue": [(2, 0, 3)], "scope": [(0, 0, 2), (1, 0, 2), (3, 0, 2)]}])
    pred = make_doc(vocab, ["It", "is", " ", "not", "so"], [True, True, False, True, False],
                    [{"cue": [(3, 0, 3)], "scope": [(0, 0, 2), (1, 0, 2), (4, 0, 2)]}])
    assert pred.text != ref.text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _check_all_one(score_negations([Example(pred, ref)]))
    other = make_doc(vocab, ["It", "is", "nut", "so"], [True, True, True, False],
                     [{"cue": [(2, 0, 3)], "scope": [(0, 0, 2), (1, 0, 2), (3, 0, 2)]}])
    with pytest.warns(UserWarning, match=r"\[NEG-W002\].*1 dropped"):
        scores = score_negations([Example(other, ref)])
    assert scores["neg_cue_f"] == 0.0 and scores["neg_st_f"] == 1.0


def test_no_examples_and_no_negations(vocab: Vocab) -> None:
    scores = score_negations([])
    for key in FLOAT_KEYS:
        assert scores[key] == 0.0
    doc = make_doc(vocab, ["Fine", "."])
    assert score_negations([Example(doc, doc.copy())])["neg_cue_f"] == 0.0


@pytest.mark.parametrize("case", CASES)
def test_agrees_with_file_based_metrics(vocab: Vocab, starsem_refdir: Path, case: str) -> None:
    """On token-aligned docs with gold tags the scorer gives the file-based numbers."""
    gold = read_starsem(starsem_refdir / case / "gold.txt")
    system = read_starsem(starsem_refdir / case / "system.txt")
    eg = Example(sentences_to_doc(vocab, system), sentences_to_doc(vocab, gold))
    scores = score_negations([eg])
    st = starsem_scores(count_starsem(gold, system))
    for prefix, key in (("cue", "cues"), ("cue_b", "cues_b"), ("scm", "scopes_cue_match"),
                        ("scm_b", "scopes_cue_match_b"), ("scnm", "scopes_no_cue_match"),
                        ("st", "scope_tokens"), ("full", "full_negation")):
        for m in "prf":
            assert scores[f"neg_{prefix}_{m}"] == st[key][m], (prefix, m)
    nis = nis_scores(count_nis(gold, system))
    for prefix, key in (("nis_cue", "cue"), ("nis_tok", "nis_tok"), ("nis_ex", "nis_ex"),
                        ("nis_tm", "token_mode")):
        for m in "prf":
            assert scores[f"neg_{prefix}_{m}"] == nis[key][m], (prefix, m)
    fe = negation_faireval(gold, system)
    assert scores["neg_fair_f"] == fe["fair"]["f"]
    assert scores["neg_fair_weighted_p"] == fe["weighted"]["p"]
    assert scores["neg_fair_trad_f"] == fe["traditional"]["f"]
    assert set(scores["neg_faireval_per_label"]) == set(fe["per_label"]["fair"])


def test_faireval_spans_scorer(vocab: Vocab) -> None:
    ref = Doc(vocab, words=["New", "York", "is", "big"])
    ref.ents = [Span(ref, 0, 2, label="LOC")]
    pred = Doc(vocab, words=["New", "York", "is", "big"])
    pred.ents = [Span(pred, 1, 2, label="LOC")]
    score = make_faireval_spans_scorer()
    scores = score([Example(pred, ref)])
    assert scores["faireval_trad_f"] == 0.0
    assert 0.0 < scores["faireval_weighted_f"] < 1.0
    ref.spans["sc"] = [Span(ref, 3, 4, label="ADJ")]
    pred.spans["sc"] = [Span(pred, 3, 4, label="ADJ")]
    assert make_faireval_spans_scorer("sc")([Example(pred, ref)])["faireval_fair_f"] == 1.0


def test_faireval_spans_scorer_projects_case_differences(vocab: Vocab) -> None:
    ref = Doc(vocab, words=["It", "is", "not", "so"])
    ref.spans["sc"] = [Span(ref, 2, 3, label="NEG")]
    pred = Doc(vocab, words=["It", "is", "NOT", "so"])
    pred.spans["sc"] = [Span(pred, 2, 3, label="NEG")]
    assert make_faireval_spans_scorer("sc")([Example(pred, ref)])["faireval_trad_f"] == 1.0


def test_case_difference_is_projected_not_dropped(vocab: Vocab) -> None:
    """Texts that differ only in letter case align (as spaCy's alignment does): no
    prediction is dropped."""
    negs = [{"cue": [(2, 0, 3)], "scope": [(0, 0, 2), (1, 0, 2), (3, 0, 2)]}]
    ref = make_doc(vocab, ["It", "is", "not", "so"], [True, True, True, False], negs)
    pred = make_doc(vocab, ["IT", "IS", "NOT", "SO"], [True, True, True, False], negs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores = score_negations([Example(pred, ref)])
    _check_all_one(scores)


def test_cue_and_scope_scorers_split_the_keys(vocab: Vocab, starsem_refdir: Path) -> None:
    gold = read_starsem(starsem_refdir / "m12_greedy_order_partial_first" / "gold.txt")
    system = read_starsem(starsem_refdir / "m12_greedy_order_partial_first" / "system.txt")
    eg = Example(sentences_to_doc(vocab, system), sentences_to_doc(vocab, gold))
    both = score_negations([eg])
    cues = score_negation_cues([eg])
    scopes = score_negation_scopes([eg])
    assert not set(cues) & set(scopes)
    assert {**cues, **scopes} == both
    assert {"neg_cue_f", "neg_cue_b_p", "neg_nis_cue_f", "neg_cue_per_type"} <= set(cues)
    assert {"neg_nis_tok_f", "neg_scm_f", "neg_full_f", "neg_fair_f"} <= set(scopes)
    assert make_negation_cue_scorer() is score_negation_cues
    assert make_negation_scope_scorer() is score_negation_scopes


def test_nlp_evaluate_computes_each_count_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the default scorers of negation_cue and negation_scope, nlp.evaluate counts
    the cue row on the cue component, scopes, NIS scopes and FairEval on the scope
    component: each once per sentence."""
    from util import CNN_TINY, load_test_nlp, make_examples

    nlp = load_test_nlp(CNN_TINY)
    for name in ("negation_cue", "negation_scope"):
        nlp.get_pipe(name).cfg  # noqa: B018  (the components exist)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    calls: Dict[str, int] = {}
    for module, name in ((counts_module, "starsem_count_record"),
                         (counts_module, "count_cue_record"), (counts_module, "nis_count_record"),
                         (counts_module, "nis_count_sentence"), (counts_module, "count_into"),
                         (scorers_module, "example_records")):
        original = getattr(module, name)

        def counted(*args: Any, _name: str = name, _f: Any = original, **kw: Any) -> Any:
            calls[_name] = calls.get(_name, 0) + 1
            return _f(*args, **kw)

        monkeypatch.setattr(module, name, counted)
    scores = nlp.evaluate(examples)
    n = len(examples)  # one sentence per example
    assert calls == {"example_records": 2 * n, "count_cue_record": n, "nis_count_sentence": n,
                     "starsem_count_record": n, "nis_count_record": n, "count_into": n}
    assert "neg_cue_f" in scores and "neg_nis_tok_f" in scores and "neg_fair_f" in scores


@pytest.mark.slow
def test_cdsco_dev_against_itself(cdsco_dir: Path) -> None:
    from spacy_negation.corpora.starsem_docs import read_starsem_docs

    nlp = spacy.blank("en")
    docs = read_starsem_docs(cdsco_dir / "SEM-2012-SharedTask-CD-SCO-dev-09032012.txt", nlp.vocab)
    examples = []
    for d in docs:  # predictions on spaCy's own tokenization, copied gold negations
        pred = nlp.make_doc(d.text)
        examples.append(Example(pred, d))
    assert score_negations(examples)["neg_cue_r"] == 0.0  # nothing predicted
    examples = [Example(d.copy(), d) for d in docs]
    _check_all_one(score_negations(examples))


# --- the generic spaCy span scorer --------------------------------------------------------
def _example(ref_words, ref_spaces, pred_words, pred_spaces, ref_ents, pred_ents, key=None):
    from spacy.tokens import Doc, Span
    from spacy.training import Example
    from spacy.vocab import Vocab

    vocab = Vocab()
    ref = Doc(vocab, words=ref_words, spaces=ref_spaces)
    pred = Doc(vocab, words=pred_words, spaces=pred_spaces)
    for doc, ents in ((ref, ref_ents), (pred, pred_ents)):
        if ents is None:
            continue
        spans = [Span(doc, s, e, label=lab) for s, e, lab in ents]
        if key is None:
            doc.ents = spans
        else:
            doc.spans[key] = spans
    return Example(pred, ref)


def test_score_span_examples_projects_onto_reference_tokens():
    # reference "New York - based firm" vs predicted "New York-based firm"
    eg1 = _example(["New", "York", "-", "based", "firm"], [True, False, False, True, False],
                   ["New", "York-based", "firm"], [True, True, False],
                   [(0, 2, "GPE"), (4, 5, "ORG")], [(0, 2, "GPE"), (2, 3, "ORG")])
    # predicted tokens finer than the reference: "can|not" inside "cannot"
    eg2 = _example(["I", "cannot", "go"], [True, True, False],
                   ["I", "can", "not", "go"], [True, False, True, False],
                   [(1, 2, "NEG")], [(2, 3, "NEG")])
    scores = score_span_examples([eg1, eg2])
    # GPE: predicted covers ref tokens 1-4 -> BEL; ORG and NEG exact on the reference
    assert scores["faireval_trad_p"] == pytest.approx(2 / 3)
    assert scores["faireval_fair_p"] == pytest.approx(2 / 2.5)
    # weighted (paper): BEL = .5 TP + .5 FP -> tp 2.5, fp .5, fn 0
    assert scores["faireval_weighted_p"] == pytest.approx(2.5 / 3)
    assert scores["faireval_weighted_r"] == 1.0
    assert scores["faireval_per_label"]["GPE"]["trad_f"] == 0.0
    assert scores["faireval_per_label"]["GPE"]["weighted_p"] == pytest.approx(0.5)
    assert scores["faireval_per_label"]["NEG"] == dict.fromkeys(
        [f"{m}_{k}" for m in ("trad", "fair", "weighted") for k in "prf"], 1.0)
    assert set(scores) == {f"faireval_{m}_{k}" for m in ("trad", "fair", "weighted")
                           for k in "prf"} | {"faireval_per_label"}


def test_score_span_examples_spans_key_and_missing_annotation():
    words, spaces = ["a", "b", "c", "d"], [True, True, True, False]
    eg = _example(words, spaces, words, spaces, [(0, 2, "X"), (1, 3, "Y")],
                  [(0, 2, "X"), (1, 4, "Y")], key="sc")
    s = score_span_examples([eg], "sc", prefix="fe_sc")
    assert s["fe_sc_fair_p"] == pytest.approx(1 / 1.5) and s["fe_sc_weighted_r"] == 1.0
    # a spans_key that no reference doc has is an error, not silent zeros
    with pytest.raises(ValueError, match=r"\[NEG-E214\].*'other'.*sc"):
        score_span_examples([eg], "other")
    # a reference doc without entity annotation is skipped, as in spaCy's scorers
    unannotated = _example(words, spaces, words, spaces, None, [(0, 1, "X")])
    annotated = _example(words, spaces, words, spaces, [(0, 1, "X")], [(0, 1, "X")])
    s = score_span_examples([unannotated, annotated])
    assert s["faireval_trad_p"] == 1.0

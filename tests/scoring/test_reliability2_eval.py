"""Evaluation that cannot be silently wrong (issue 40, items 5, 7, 8, 11 and 14)."""
from typing import Dict, List, Optional, Sequence

import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab

from spacy_negation import register_extensions, set_negations
from spacy_negation.scoring.doc_records import example_records
from spacy_negation.scoring.scorers import score_negation_scopes, score_negations


@pytest.fixture(scope="module")
def vocab() -> Vocab:
    register_extensions()
    return spacy.blank("en").vocab


def make_doc(vocab: Vocab, words: List[str], spaces: List[bool], negs: Sequence[Dict],
             sent_starts: Optional[List[bool]] = None) -> Doc:
    doc = Doc(vocab, words=words, spaces=spaces, sent_starts=sent_starts)
    set_negations(doc, [dict(n) for n in negs])
    return doc


# --- 5. the scope scorer --------------------------------------------------------------------------
WORDS = ["He", "did", "not", "go", ".", "She", "stayed", "."]
SPACES = [True, True, True, False, True, True, False, False]
STARTS = [True, False, False, False, False, True, False, False]
GOLD = {"cue": [(2, 0, 3)], "scope": [(0, 0, 2), (1, 0, 3), (3, 0, 2)]}


def test_predicted_scope_tokens_in_another_sentence_are_false_positives(vocab):
    ref = make_doc(vocab, WORDS, SPACES, [GOLD], STARTS)
    wrong = dict(GOLD, scope=GOLD["scope"] + [(5, 0, 3), (6, 0, 6)])
    pred = make_doc(vocab, WORDS, SPACES, [wrong])  # no sentence boundaries predicted
    scores = score_negation_scopes([Example(pred, ref)])
    assert scores["neg_scm_f"] == 0.0 and scores["neg_full_f"] == 0.0  # was 1.0
    assert scores["neg_st_p"] == pytest.approx(3 / 5) and scores["neg_st_r"] == 1.0
    assert scores["neg_nis_tok_f"] < 1.0 and scores["neg_nis_ex_f"] == 0.0
    gold, system, _ = example_records(Example(pred, ref))
    assert len(gold) == len(system) == 1 and len(gold[0].tokens) == 8  # the two joined
    # a gold scope across the boundary that the prediction misses: false negatives
    ref2 = make_doc(vocab, WORDS, SPACES, [wrong], STARTS)
    pred2 = make_doc(vocab, WORDS, SPACES, [GOLD])
    scores = score_negation_scopes([Example(pred2, ref2)])
    assert scores["neg_st_r"] == pytest.approx(3 / 5) and scores["neg_scm_f"] == 0.0
    # the right prediction still scores 1.0, the sentences stay apart
    scores = score_negation_scopes([Example(make_doc(vocab, WORDS, SPACES, [GOLD]), ref)])
    assert scores["neg_scm_f"] == scores["neg_st_f"] == scores["neg_full_f"] == 1.0
    gold, _, _ = example_records(Example(make_doc(vocab, WORDS, SPACES, [GOLD]), ref))
    assert len(gold) == 2


def test_three_sentences_joined_once(vocab):
    words = ["No", ".", "A", ".", "B", ".", "C", "."]
    spaces = [True] * 7 + [False]
    starts = [True, False, True, False, True, False, True, False]
    ref = make_doc(vocab, words, spaces, [{"cue": [(0, 0, 2)], "scope": [(2, 0, 1)]},
                                          {"cue": [(2, 0, 1)], "scope": [(4, 0, 1)]}], starts)
    gold, system, _ = example_records(Example(make_doc(vocab, words, spaces, []), ref))
    assert [len(r.tokens) for r in gold] == [6, 2] and [len(r.instances) for r in gold] == [2, 0]
    assert [len(r.tokens) for r in system] == [6, 2]


def test_identical_docs_with_a_whitespace_cue_score_one(vocab):
    words = ["He", "\n", "left", "."]
    spaces = [False, False, False, False]
    neg = {"cue": [(1, 0, 1)], "scope": [(0, 0, 2), (2, 0, 4)]}
    ref = make_doc(vocab, words, spaces, [neg])
    pred = make_doc(vocab, words, spaces, [neg])
    scores = score_negations([Example(pred, ref)])
    for key in ("neg_cue_f", "neg_scm_f", "neg_st_f", "neg_nis_tok_f", "neg_full_f", "neg_fair_f"):
        assert scores[key] == 1.0, key  # was 0.0
    # a missed whitespace cue is a false negative, not nothing
    scores = score_negations([Example(make_doc(vocab, words, spaces, []), ref)])
    assert scores["neg_cue_r"] == 0.0 and scores["neg_cue_p"] == 0.0
    gold, system, _ = example_records(Example(make_doc(vocab, words, spaces, []), ref))
    assert len(gold[0].instances) == 1 and gold[0].tokens[1] == "\n"
    # whitespace tokens that are no cue are not scored
    gold, _, _ = example_records(Example(pred, make_doc(vocab, words, spaces, [])))
    assert gold[0].tokens == ["He", "\n", "left", "."]
    gold, _, _ = example_records(Example(make_doc(vocab, words, spaces, []),
                                         make_doc(vocab, words, spaces, [])))
    assert gold[0].tokens == ["He", "left", "."]


# --- 7. seeds ---------------------------------------------------------------------------------------
from spacy_negation.cli import main  # noqa: E402

from starsem_systems import files  # noqa: E402,F401  (a fixture)


def _evaluate_json(capsys, gold, system, out):
    assert main(["evaluate", str(gold), str(system), "--json"]) == 0
    out.write_text(capsys.readouterr().out, encoding="utf-8")
    return out


def _fail(capsys, *args) -> str:
    assert main([str(a) for a in args]) == 1
    return capsys.readouterr().err


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1.7", "-0.1", "85.5"])
def test_seeds_refuses_values_that_are_not_fractions(files, tmp_path, capsys, value):  # noqa: F811
    gold, a, b = files
    ja = _evaluate_json(capsys, gold, a, tmp_path / "a.json")
    jb = tmp_path / "b.json"
    jb.write_text('{"nis": {"nis_tok": {"f": %s}}}' % value, encoding="utf-8")
    err = _fail(capsys, "seeds", ja, jb, "--metric", "nis.nis_tok.f")
    assert "[NEG-E952]" in err and str(jb) in err


def test_seeds_refuses_system_files_of_other_runs(files, tmp_path, capsys):  # noqa: F811
    gold, a, b = files
    ja = _evaluate_json(capsys, gold, a, tmp_path / "a.json")
    jb = _evaluate_json(capsys, gold, b, tmp_path / "b.json")
    args = ["--gold", gold, "--metric", "nis.nis_tok.f", "--samples", 50, "--json"]
    assert main([str(x) for x in ["seeds", ja, jb, "--system", a, b, *args]]) == 0
    capsys.readouterr()
    err = _fail(capsys, "seeds", ja, jb, "--system", b, a, *args)  # swapped
    assert "[NEG-E953]" in err and str(b) in err and str(ja) in err
    err = _fail(capsys, "seeds", ja, jb, "--system", gold, gold, *args)  # not the runs' at all
    assert "[NEG-E953]" in err


# --- 8. faireval --labels ------------------------------------------------------------------------
@pytest.fixture
def span_pair(tmp_path):
    target = tmp_path / "gold.tsv"
    target.write_text("A\t1\t2\t1, 2\nB\t4\t4\t4\n", encoding="utf-8")
    system = tmp_path / "pred.tsv"
    system.write_text("A\t1\t3\t1, 2, 3\nB\t4\t4\t4\n", encoding="utf-8")
    return target, system


@pytest.mark.parametrize("labels", ["", ",", " , ,"])
def test_faireval_empty_label_list_is_an_error(span_pair, capsys, labels):
    err = _fail(capsys, "faireval", *span_pair, "--labels", labels)
    assert "[NEG-E955]" in err
    assert main(["faireval", *map(str, span_pair), "--labels", "B", "--json"]) == 0
    assert '"f": 1.0' in capsys.readouterr().out


# --- 11. bounded allocations --------------------------------------------------------------------
def test_compare_and_seeds_bound_the_samples(files, tmp_path, capsys):  # noqa: F811
    from spacy_negation.metrics.bootstrap import MAX_SAMPLES, approximate_randomization, resampled_statistics

    gold, a, b = files
    for option in ("--samples", "--ar-samples"):
        err = _fail(capsys, "compare", gold, a, b, option, 1000000000)
        assert "[NEG-E954]" in err and option in err
    ja = _evaluate_json(capsys, gold, a, tmp_path / "a.json")
    jb = _evaluate_json(capsys, gold, b, tmp_path / "b.json")
    assert "[NEG-E954]" in _fail(capsys, "seeds", ja, jb, "--gold", gold, "--system", a, b,
                             "--samples", MAX_SAMPLES + 1)
    import numpy

    with pytest.raises(ValueError, match=r"\[NEG-E954\]"):
        resampled_statistics([numpy.ones((3, 2))], [lambda t: t[:, 0]], resamples=10**9, seed=0)
    with pytest.raises(ValueError, match=r"\[NEG-E954\]"):
        approximate_randomization([(numpy.ones((3, 2)), numpy.ones((3, 2)))], [lambda t: t[..., 0]],
                                  samples=10**9)


def test_faireval_span_range_is_bounded(tmp_path, capsys):
    from spacy_negation.metrics.faireval.io import MAX_RANGE_TOKENS

    target = tmp_path / "gold.tsv"
    target.write_text("A\t1\t300000000\t\n", encoding="utf-8")
    err = _fail(capsys, "faireval", target, target)
    assert "[NEG-E956]" in err and f"{target}:1" in err
    # a range at the limit is read; listed tokens are not limited by the range
    target.write_text(f"A\t1\t{MAX_RANGE_TOKENS}\t\nB\t1\t300000000\t1, 300000000\n", encoding="utf-8")
    assert main(["faireval", str(target), str(target), "--json"]) == 0
    assert '"f": 1.0' in capsys.readouterr().out


# --- 14. challenge --host, probe --ranks -------------------------------------------------------
def test_challenge_host_of_an_unknown_language_is_a_coded_error():
    from spacy_negation.challenge import load_pipeline

    with pytest.raises(ValueError, match=r"\[NEG-E126\] Unknown language 'klingon'"):
        load_pipeline("any_model", host="blank:klingon")


def test_probe_ranks_beyond_the_vocabulary(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tiny_mlm import save_bert

    from spacy_negation.probe.mlm import load

    enc = save_bert(tmp_path / "enc", head=False)
    with pytest.warns(UserWarning, match=r"\[NEG-W600\]"):
        err = _fail(capsys, "probe", enc, "--tied-head", "--ranks", "999999", "--output",
                    tmp_path / "out.json", "--no-progress", "--no-plot", "--sample", "1")
    assert "[NEG-E957]" in err and not (tmp_path / "out.json").exists()
    with pytest.warns(UserWarning, match=r"\[NEG-W600\]"):
        mlm = load(enc, tied_head=True)
    n = mlm.n_predictable
    assert len(mlm.topk(["Peter likes to [MASK]."], n)[0]) == n
    with pytest.raises(ValueError, match=r"\[NEG-E957\]"):
        mlm.topk(["Peter likes to [MASK]."], n + 1)
    with pytest.warns(UserWarning, match=r"\[NEG-W600\]"):
        err = _fail(capsys, "probe", enc, "--tied-head", "--ranks", "-1", "--output",
                    tmp_path / "out.json", "--no-progress", "--no-plot", "--sample", "1")
    assert "[NEG-E606]" in err

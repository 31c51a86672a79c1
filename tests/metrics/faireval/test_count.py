"""FairEval: the reference cases, the matching steps, weights, readers, negation spans and
the generic spaCy span scorer."""
import ast
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_negation.metrics.faireval import (BE_WEIGHTS, BE_WEIGHTS_FORMULA, FAIR_TYPES,
                                             FAIR_WEIGHTS, PAPER_WEIGHTS, PAPER_WEIGHTS_FORMULA,
                                             FSpan, count_sentence, count_spans, faireval,
                                             format_weights, negation_faireval, negation_spans,
                                             overlap_type, parse_weights,
                                             weighted_prf)
from spacy_negation.metrics.faireval.files import (count_files, format_span_sentences, pair_files,
                                                   write_span_file)
from spacy_negation.metrics.faireval.io import parse_faireval_lines, read_faireval_file
from spacy_negation.corpora.starsem import parse_starsem
from spacy_negation.scoring.scorers import score_span_examples

from util import assert_coded_error

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
REF = SHARED / "fixtures" / "reference-scores"
METRIC_KEYS = {"Prec": "p", "Rec": "r", "F1": "f"}


def _reference_params() -> List[Any]:
    path = REF / "expected.json"
    if not path.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason="../shared not present"))]
    micro = json.loads(path.read_text(encoding="utf-8"))["faireval_micro"]
    return [pytest.param(case, cfg, id=f"{case}-{cfg}")
            for case, cfgs in micro.items() for cfg in cfgs if cfg != "description"]


def S(label: str, begin: int, end: int, *tokens: int) -> FSpan:
    return FSpan(label, begin, end, frozenset(tokens or range(begin, end + 1)))


def _settings(case_dir: Path, cfg: str) -> Tuple[str, bool]:
    """focus and ignore_punct as printed in the reference's settings block."""
    out = (case_dir / f"out_{cfg}.txt").read_text(encoding="utf-8")
    focus = re.search(r"^focus: (\w+)$", out, re.M).group(1)
    ignore_punct = re.search(r"^ignore_punct: (\w+)$", out, re.M).group(1) == "True"
    return focus, ignore_punct


def _assert_block(mine: Dict[str, Any], theirs: Dict[str, Any]) -> None:
    for key, value in theirs.items():
        assert mine[METRIC_KEYS.get(key, key)] == pytest.approx(value, abs=1e-12), key
    # and nothing more than the reference's keys (p/r/f renamed)
    assert set(mine) == {METRIC_KEYS.get(k, k) for k in theirs}


def _assert_reference(result: Dict[str, Any], exact: Dict[str, Any]) -> None:
    ev = exact["eval"]
    for method in ("traditional", "fair", "weighted"):
        _assert_block(result[method], ev["overall"][method])
        assert set(result["per_label"][method]) == set(ev["per_label"][method])
        for label, block in ev["per_label"][method].items():
            _assert_block(result["per_label"][method][label], block)
    labels = set(ev["conf"]) | {s for row in ev["conf"].values() for s in row}
    assert set(result["confusion"]) == labels
    for tl in labels:
        for sl in labels:
            assert result["confusion"][tl][sl] == ev["conf"].get(tl, {}).get(sl, 0), (tl, sl)


# --- the reference cases ------------------------------------------------------------------

@pytest.mark.parametrize("case,cfg", _reference_params())
def test_reference_case_reproduced(shared_dir, case, cfg):
    """Every case and config of expected.json, through the file readers. The punctuation
    case (f15) needs the reference's punctuation handling (punct_compat); for every other
    case and config both modes give the reference's output."""
    expected = json.loads((REF / "expected.json").read_text(encoding="utf-8"))
    exact = expected["faireval_micro"][case][cfg]["exact"]
    case_dir = REF / "faireval" / case
    focus, ignore_punct = _settings(case_dir, cfg)
    if cfg in expected["faireval_configs"]:
        conf = expected["faireval_configs"][cfg]
        assert conf["focus"] == focus and conf["ignore_punct"] == str(ignore_punct)
        weights = parse_weights(conf["weights"])
        assert weights == exact["weights"]
        printed = re.search(r"^weights: (\{.*\})$", (case_dir / f"out_{cfg}.txt").read_text(
            encoding="utf-8"), re.M).group(1)
        assert list(weights.items()) == list(ast.literal_eval(printed).items())  # same order
    else:
        weights = exact["weights"]
    modes = [True] if (case.startswith("f15") and ignore_punct) else [True, False]
    for compat in modes:
        counts = count_files(case_dir / "target", case_dir / "system", focus=focus,
                             ignore_punct=ignore_punct, punct_compat=compat)
        from spacy_negation.metrics.faireval import scores_from_counts
        _assert_reference(scores_from_counts(counts, weights), exact)
        assert counts.target_labels == exact["data_stats"]


def test_f15_fixed_punctuation_deviates_on_purpose(shared_dir):
    """Q-F8 fixed: the target span 'It rained , .' loses both trailing punctuation tokens,
    so it equals the system span (TP). The reference keeps its end on ',' (BES)."""
    case_dir = REF / "faireval" / "f15_conll_trailing_punct"
    target = read_faireval_file(case_dir / "target" / "sent.conll", ignore_punct=True)
    compat = read_faireval_file(case_dir / "target" / "sent.conll", ignore_punct=True,
                                punct_compat=True)
    raw = read_faireval_file(case_dir / "target" / "sent.conll")
    assert target[0].spans == [S("X", 1, 2)]
    assert compat[0].spans == [S("X", 1, 3, 1, 2)]
    assert raw[0].spans == [S("X", 1, 4)]
    fixed = faireval([target[0].spans],
                     [read_faireval_file(case_dir / "system" / "sent.conll", ignore_punct=True)[0].spans])
    assert fixed["traditional"]["TP"] == 1 and fixed["fair"]["TP"] == 1
    assert fixed["fair"]["BE"] == 0 and fixed["weighted"]["f"] == 1.0


def test_paper_weights_are_the_reference_default(shared_dir):
    expected = json.loads((REF / "expected.json").read_text(encoding="utf-8"))
    exact = expected["faireval_micro"]["f15_conll_trailing_punct"]["ignore_punct_True"]["exact"]
    assert PAPER_WEIGHTS == exact["weights"]
    assert parse_weights(expected["faireval_configs"]["B_system_halftpBE"]["weights"]) == BE_WEIGHTS


# --- the matching steps -------------------------------------------------------------------

@pytest.mark.parametrize("target,system,expected", [
    ((3, 5), (3, 5), "TP"),
    ((3, 5), (3, 4), "BES"), ((3, 5), (4, 5), "BES"), ((3, 5), (4, 4), "BES"),
    ((3, 5), (3, 6), "BEL"), ((3, 5), (2, 5), "BEL"), ((3, 5), (1, 9), "BEL"),
    ((3, 5), (1, 3), "BEO"), ((3, 5), (4, 7), "BEO"), ((3, 5), (5, 9), "BEO"),
    ((3, 5), (1, 2), None), ((3, 5), (6, 7), None),
])
def test_overlap_type(target, system, expected):
    assert overlap_type(target, system) == expected


def test_traditional_is_membership_fair_is_one_to_one():
    """Q-F1: a system emitting every span twice has traditional P = 1."""
    target = [[S("A", 1, 2), S("B", 4, 4)]]
    system = [[S("A", 1, 2), S("A", 1, 2), S("B", 4, 4), S("B", 4, 4)]]
    r = faireval(target, system)
    assert (r["traditional"]["TP"], r["traditional"]["FP"], r["traditional"]["FN"]) == (2, 0, 0)
    assert r["traditional"]["p"] == 1.0
    assert (r["fair"]["TP"], r["fair"]["FP"], r["fair"]["FN"]) == (2, 2, 0)
    assert r["fair"]["p"] == 0.5
    assert r["confusion"]["_"] == {"A": 1, "B": 1, "_": 0}


def test_same_bounds_other_tokens_is_fp_and_fn():
    """Q-F2: same label and boundaries, other token set: neither TP, LE nor BE."""
    c = count_sentence([S("A", 1, 5, 1, 2, 4, 5)], [S("A", 1, 5)])
    assert c.fair.to_dict() == dict.fromkeys(FAIR_TYPES, 0) | {"FP": 1, "FN": 1}


def test_range_overlap_without_shared_token_is_be():
    """Q-F3: a span in the gap of a discontinuous span is a BE (step a)."""
    c = count_sentence([S("A", 2, 6, 2, 6)], [S("A", 4, 4)])
    assert (c.fair.BE, c.fair.BES, c.fair.FP, c.fair.FN) == (1, 1, 0, 0)


def test_lbe_step_b_and_focus():
    """One long system span of another label over two targets: LBE in step a, then the
    second target against the counted system span's residual tokens (step b)."""
    target, system = [S("A", 1, 2), S("A", 3, 4)], [S("B", 1, 4)]
    for focus, label in (("target", "A"), ("system", "B")):
        c = count_sentence(target, system, focus)
        assert (c.fair.LBE, c.fair.FP, c.fair.FN, c.fair.TP) == (2, 0, 0, 0)
        assert c.per_label_fair[label].LBE == 2
        assert sum(c.per_label_fair[lab].LBE for lab in c.per_label_fair) == 2
        assert c.confusion_matrix()["A"]["B"] == 2


def test_lbe_step_c():
    """Two short system spans of another label in one target: the tie (same similarity and
    length) goes to the first listed (step a), the second matches the residual (step c)."""
    c = count_sentence([S("A", 1, 4)], [S("B", 1, 2), S("C", 3, 4)], "system")
    assert (c.fair.LBE, c.fair.FP, c.fair.FN) == (2, 0, 0)
    assert c.per_label_fair["B"].LBE == 1 and c.per_label_fair["C"].LBE == 1
    assert c.confusion_matrix()["A"] == {"A": 0, "B": 1, "C": 1, "_": 0}
    # without residual tokens nothing is left to match: the other span stays FP
    c = count_sentence([S("A", 1, 4, 1, 4)], [S("B", 1, 3, 1), S("C", 4, 4)])
    assert (c.fair.LBE, c.fair.FP) == (2, 0)
    # spans matched as LE never enter the counted lists: no LBE against them
    c = count_sentence([S("A", 1, 2)], [S("B", 1, 2, 1), S("C", 2, 3)])
    assert (c.fair.LE, c.fair.LBE, c.fair.FP) == (1, 0, 1)


def test_most_similar_beats_list_order():
    """The longer candidate sharing more tokens wins over the shorter one listed first."""
    c = count_sentence([S("A", 1, 6)], [S("A", 3, 5), S("A", 1, 8)])
    assert (c.fair.BE, c.fair.BEL, c.fair.BES, c.fair.FP, c.fair.FN) == (1, 1, 0, 1, 0)


def test_be_is_counted_for_the_target_label_in_step_c():
    """Q-F5: BE (steps a and c) is counted under the target label whatever the focus."""
    c = count_sentence([S("A", 1, 5)], [S("A", 1, 2), S("A", 4, 5)], "system")
    assert (c.fair.BE, c.fair.BES) == (2, 2)
    assert c.per_label_fair["A"].BE == 2


def test_duplicate_target_and_le_order():
    c = count_sentence([S("A", 1, 2), S("A", 1, 2)], [S("A", 1, 2)])
    assert (c.traditional.TP, c.traditional.FP, c.fair.TP, c.fair.FN) == (2, 0, 1, 1)
    # two system spans with the target's boundaries and other labels: the first is the LE
    c = count_sentence([S("A", 1, 2)], [S("C", 1, 2), S("B", 1, 2)], "system")
    assert c.per_label_fair["C"].LE == 1 and c.per_label_fair["B"].FP == 1


def test_empty_and_invalid_inputs():
    r = faireval([[], []], [[], []])
    for method in ("traditional", "fair", "weighted"):
        assert (r[method]["p"], r[method]["r"], r[method]["f"]) == (0.0, 0.0, 0.0)
    assert r["confusion"] == {"_": {"_": 0}} and r["per_label"]["fair"] == {}
    with pytest.raises(ValueError, match=r"\[NEG-E255\]"):
        count_spans([[]], [])
    with pytest.raises(ValueError, match=r"\[NEG-E251\]"):
        faireval([[]], [[]], focus="gold")
    for bad in ((0, 1, {1}), (3, 2, {2}), (1, 2, set()), (1, 2, {3})):
        with pytest.raises(ValueError, match=r"\[NEG-E250\]"):
            FSpan("A", *bad)
    with pytest.raises(ValueError, match=r"\[NEG-E250\]"):
        FSpan("", 1, 1, {1})
    assert FSpan("A", 1, 3, [1, 3]).tokens == frozenset({1, 3})
    assert FSpan.from_range("A", 2, 4) == S("A", 2, 4, 2, 3, 4)


# --- weights and scores -------------------------------------------------------------------

def test_parse_weights():
    assert PAPER_WEIGHTS == {
        "LE": {"TP": 0, "FP": 0.5, "FN": 0.5}, "BES": {"TP": 0.5, "FP": 0, "FN": 0.5},
        "BEL": {"TP": 0.5, "FP": 0.5, "FN": 0}, "BEO": {"TP": 0.5, "FP": 0.25, "FN": 0.25},
        "LBE": {"TP": 0, "FP": 0.5, "FN": 0.5},
        "TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1}}
    assert parse_weights("LE=.5*FP+0.5FN, FN = 2 FN,") == {
        "LE": {"TP": 0, "FP": 0.5, "FN": 0.5}, "FN": {"TP": 0, "FP": 0, "FN": 2.0},
        "TP": {"TP": 1}, "FP": {"FP": 1}}
    for formula in (PAPER_WEIGHTS_FORMULA, BE_WEIGHTS_FORMULA, "LE = 2 TP, FP = 0.5 FP"):
        assert parse_weights(format_weights(parse_weights(formula))) == parse_weights(formula)
    for bad, code in (("", "E252"), ("LE 0.5 FP", "E252"), ("LE = FP + FN", "E252"),
                      ("LE = 0.5 XP", "E252"), ("LE =", "E252"), ("XE = 1 FP", "E253"),
                      ("LE = 1 FP, LE = 1 FN", "E254"), ("LE = 1 FP + 1 FP", "E254")):
        with pytest.raises(ValueError, match=rf"\[NEG-{code}\]"):
            parse_weights(bad)


def test_weighted_scores_and_weight_choices():
    counts = {"TP": 1, "FP": 1, "FN": 0, "LE": 1, "BE": 2, "BES": 1, "BEL": 0, "BEO": 1, "LBE": 0}
    # paper: tp = 1 + .5 + .5, fp = 1 + .5 + .25, fn = .5 + .5 + .25
    assert weighted_prf(counts, PAPER_WEIGHTS) == pytest.approx(
        {"p": 2 / 3.75, "r": 2 / 3.25, "f": 2 * (2 / 3.75) * (2 / 3.25) / (2 / 3.75 + 2 / 3.25)})
    # BE aggregate: tp = 1 + 1, fp = 1 + .5 + .5, fn = .5 + .5
    assert weighted_prf(counts, BE_WEIGHTS)["p"] == pytest.approx(2 / 4)
    assert weighted_prf({}, PAPER_WEIGHTS) == {"p": 0.0, "r": 0.0, "f": 0.0}
    target, system = [[S("A", 1, 4), S("B", 6, 6)]], [[S("A", 1, 2), S("C", 6, 6)]]
    fair = faireval(target, system, weights=None)
    assert fair["weighted"] == fair["fair"]
    assert faireval(target, system, weights=FAIR_WEIGHTS)["weighted"] == fair["fair"]
    assert faireval(target, system, weights=BE_WEIGHTS_FORMULA) == faireval(target, system,
                                                                            weights=BE_WEIGHTS)
    with pytest.raises(ValueError, match=r"\[NEG-E253\]"):
        faireval(target, system, weights={"XX": {"TP": 1}})
    with pytest.raises(ValueError, match=r"\[NEG-E256\]"):
        faireval(target, system, weights={"LE": {"TP": "1"}})


# --- properties -----------------------------------------------------------------------------

@st.composite
def spans(draw: Any) -> List[FSpan]:
    out = []
    for _ in range(draw(st.integers(0, 5))):
        begin = draw(st.integers(1, 8))
        end = draw(st.integers(begin, min(begin + 4, 10)))
        inner = draw(st.sets(st.integers(begin, end)))
        toks = frozenset(inner) or frozenset(range(begin, end + 1))
        out.append(FSpan(draw(st.sampled_from("ABC")), begin, end, toks))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(spans(), spans()), min_size=1, max_size=3),
       st.sampled_from(["target", "system"]))
def test_fair_counts_bounds(sentences, focus):
    target = [t for t, _ in sentences]
    system = [s for _, s in sentences]
    c = count_spans(target, system, focus)
    n, m = sum(map(len, target)), sum(map(len, system))
    f = c.fair
    total = f.TP + f.FP + f.FN + f.LE + f.BE + f.LBE
    assert max(n, m) <= total <= n + m
    assert f.BE == f.BES + f.BEL + f.BEO
    assert c.traditional.TP + c.traditional.FN == n
    assert c.traditional.TP <= n and c.traditional.FP <= m
    assert f.TP <= c.traditional.TP
    for key in FAIR_TYPES:
        assert sum(getattr(p, key) for p in c.per_label_fair.values()) == getattr(f, key)
    conf = c.confusion_matrix()
    assert sum(sum(row.values()) for row in conf.values()) == f.LE + f.BE + f.LBE + f.FN + f.FP
    # counting is per sentence: the corpus counts are the sums of the sentence counts
    assert sum(count_sentence(t, s, focus).fair.TP for t, s in sentences) == f.TP


# --- readers --------------------------------------------------------------------------------

def _parse(text: str, **kw: Any) -> List[List[FSpan]]:
    return [s.spans for s in parse_faireval_lines(text.split("\n"), path="x.txt", **kw)]


def test_span_file_reader():
    text = ("A\t1\t3\t1, 3\nB\t5\t4\t\nC\t2\t2\t2,\n\n"
            "EMPTY\t999\t999\t999\n\n\n"
            "NONE\t1\t1\t1\nA\t2\t3\t2\n")
    assert _parse(text) == [[S("A", 1, 3, 1, 3), S("B", 4, 5), S("C", 2, 2)], [], [S("A", 2, 3, 2)]]
    assert _parse(text, exclude=[])[1] == [S("EMPTY", 999, 999)]
    assert _parse(text, labels=["A"]) == [[S("A", 1, 3, 1, 3)], [], [S("A", 2, 3, 2)]]


@pytest.mark.parametrize("text,code,line", [
    ("A\t1\t2\t1, 2\nfoo\n", "E257", 2),
    ("A 1 2 3\n", "E257", 1),
    ("A\t1\t2\t1\nIt PRP B-X\n", "E258", 2),
    ("\n\n\t1\t2\t1\n", "E259", 3),
    ("A\t0\t2\t1\n", "E260", 1),
    ("A\t1\tx\t1\n", "E260", 1),
    ("A\t1\t2\t1, b\n", "E261", 1),
    ("A\t1\t2\t1, 3\n", "E262", 1),
    ("It PRP B-X\nrained VBD X\n", "E263", 2),
    ("It PRP B-\n", "E263", 1),
    ("It PRP B-X|O\n", "E263", 1),
])
def test_reader_errors(tmp_path, text, code, line):
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    assert_coded_error(read_faireval_file, path, code, line)


def test_reader_rejects_bad_utf8(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"A\t1\t1\t1\n\nA\t1\t1\t\xff\n")
    assert_coded_error(read_faireval_file, path, "E111", 3)


def test_conll_reader():
    conll = ("The DT B-NEG-SCOPE\nman NN I-NEG-SCOPE\nsaw VBD O\nit PRP I-X\n"
             "all DT I-Y\n. . O\n")
    # labels keep their '-'; I- after O starts a span; I-Y after X starts a new one
    assert _parse(conll) == [[S("NEG-SCOPE", 1, 2), S("X", 4, 4), S("Y", 5, 5)]]
    stacked = ("a x B-S|B-NP\nb x I-S|I-NP\nc x I-S|B-VP\nd x I-S\ne x O\n"
               "f x _\ng x B-S|I-NP\nh x I-S|I-NP\n")
    assert _parse(stacked) == [[S("NP", 1, 2), S("VP", 3, 3), S("S", 1, 4),
                                S("S", 7, 8), S("NP", 7, 8)]]
    assert parse_faireval_lines(["a\tx\tB-X"]).__next__().spans == [S("X", 1, 1)]
    assert next(parse_faireval_lines(["a x "])).spans == []


def test_conll_punctuation_removal():
    conll = ("`` `` B-Q\nHe PRP I-Q\nsaid VBD I-Q\n( -LRB- I-Q\n, , I-Q\n. . I-Q\n"
             "'' '' B-Z\n")
    assert _parse(conll) == [[S("Q", 1, 6), S("Z", 7, 7)]]
    assert _parse(conll, ignore_punct=True) == [[S("Q", 2, 3)]]
    # the reference: no PTB quotes/brackets, the end stays on the first trailing ','
    assert _parse(conll, ignore_punct=True, punct_compat=True) == [
        [S("Q", 1, 5, 1, 2, 3, 4), S("Z", 7, 7)]]
    only_punct = ". . B-P\n, , I-P\nx NN B-R\n"
    assert _parse(only_punct, ignore_punct=True) == [[S("R", 3, 3)]]
    assert _parse(only_punct, ignore_punct=True, punct_compat=True) == [[S("R", 3, 3)]]
    # span files are never changed by ignore_punct
    assert _parse("A\t1\t2\t1, 2\n", ignore_punct=True) == [[S("A", 1, 2)]]


def test_span_file_round_trip(tmp_path):
    sentences = [[S("CUE", 3, 3), S("SCOPE", 1, 8, 1, 2, 4, 8)], [], [S("A", 2, 2)]]
    path = tmp_path / "out" / "spans.tsv"
    write_span_file(sentences, path)
    assert path.read_text(encoding="utf-8") == format_span_sentences(sentences)
    assert "EMPTY\t999\t999\t999" in path.read_text(encoding="utf-8")
    assert [s.spans for s in read_faireval_file(path)] == sentences


def test_count_files_checks_alignment(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "s").mkdir()
    (tmp_path / "t" / "a.tsv").write_text("A\t1\t1\t1\n\nA\t2\t2\t2\n", encoding="utf-8")
    (tmp_path / "s" / "a.tsv").write_text("A\t1\t1\t1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E255\]"):
        count_files(tmp_path / "t", tmp_path / "s")
    (tmp_path / "s" / "a.tsv").write_text("A\t1\t1\t1\n\nB\t2\t2\t2\n", encoding="utf-8")
    c = count_files(tmp_path / "t", tmp_path / "s")
    assert (c.fair.TP, c.fair.LE, c.n_sentences) == (1, 1, 2)
    # two files are paired whatever their names (Q-F7 fixed)
    assert count_files(tmp_path / "t" / "a.tsv", tmp_path / "s" / "a.tsv").fair.TP == 1
    (tmp_path / "s" / "b.tsv").write_text("A\t1\t1\t1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E265\]"):
        pair_files(tmp_path / "t", tmp_path / "s")
    with pytest.raises(ValueError, match=r"\[NEG-E266\]"):
        pair_files(tmp_path / "t" / "a.tsv", tmp_path / "s")
    with pytest.raises(FileNotFoundError):
        pair_files(tmp_path / "nothing", tmp_path / "s")
    (tmp_path / "t0").mkdir()
    (tmp_path / "s0").mkdir()
    (tmp_path / "s0" / ".hidden").write_text("A\t1\t1\t1\n", encoding="utf-8")  # not a file to evaluate
    with pytest.raises(ValueError, match=r"\[NEG-E267\] .*t0: the folder holds no files to evaluate"):
        pair_files(tmp_path / "t0", tmp_path / "s0")
    (tmp_path / "t1.conll").write_text("a x B-X\nb x I-X\n", encoding="utf-8")
    (tmp_path / "s1.conll").write_text("a x B-X\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E264\]"):
        count_files(tmp_path / "t1.conll", tmp_path / "s1.conll")


# --- negation spans -------------------------------------------------------------------------

def _sentence(rows: List[Tuple[str, str, List[Tuple[str, str, str]]]]):
    """rows: (form, POS, [(cue, scope, event) per instance])."""
    lines = []
    for i, (form, pos, cells) in enumerate(rows):
        neg = [c for inst in cells for c in inst] if cells else ["***"]
        lines.append("\t".join(["d", "0", str(i), form, form.lower(), pos, "*", *neg]))
    return next(parse_starsem(lines))


_ = "_"


def test_negation_spans_affixal_and_punctuation():
    sent = _sentence([("It", "PRP", [(_, "It", _)]), ("was", "VBD", [(_, "was", _)]),
                      ("unusual", "JJ", [("un", "usual", "usual")]), (".", ".", [(_, ".", _)])])
    assert negation_spans(sent) == [S("AFFIX", 3, 3), S("SCOPE", 1, 3)]


def test_negation_spans_multiword_and_order():
    rows = [("Neither", "CC", [("Neither", _, _), (_, _, _)]),
            ("he", "PRP", [(_, "he", _), (_, _, _)]),
            ("nor", "CC", [("nor", _, _), (_, _, _)]),
            ("she", "PRP", [(_, "she", _), (_, _, _)]),
            ("came", "VBD", [(_, "came", "came"), (_, _, _)]),
            ("without", "IN", [(_, _, _), ("without", _, _)]),
            ("hats", "NNS", [(_, _, _), (_, "hats", _)])]
    assert negation_spans(_sentence(rows)) == [
        S("MWCUE", 1, 3, 1, 3), S("SCOPE", 2, 5, 2, 4, 5), S("CUE", 6, 6), S("SCOPE", 7, 7)]


def test_negation_spans_punctuation_only_scope():
    rows = [("No", "DT", [("No", _, _)]), ("(", "-LRB-", [(_, "(", _)]),
            ("!", ".", [(_, "!", _)]), ("''", "''", [(_, "''", _)]), ("'s", "POS", [(_, _, _)])]
    assert negation_spans(_sentence(rows)) == [S("CUE", 1, 1)]
    # the gold-POS rule: "'" tagged POS is a scope token
    rows[4] = ("'s", "POS", [(_, "'s", _)])
    assert negation_spans(_sentence(rows)) == [S("CUE", 1, 1), S("SCOPE", 5, 5)]
    assert negation_spans(_sentence([("Fine", "JJ", []), (".", ".", [])])) == []


def test_negation_faireval():
    gold = _sentence([("It", "PRP", [(_, "It", _)]), ("was", "VBD", [(_, "was", _)]),
                      ("unusual", "JJ", [("un", "usual", _)])])
    system = _sentence([("It", "PRP", [(_, _, _)]), ("was", "VBD", [(_, "was", _)]),
                        ("unusual", "JJ", [("unusual", "unusual", _)])])
    r = negation_faireval([gold], [system])
    # AFFIX predicted as a whole-word CUE: LE; scope {2,3} in {1,2,3}: BES
    assert (r["fair"]["LE"], r["fair"]["BES"], r["fair"]["TP"]) == (1, 1, 0)
    assert r["confusion"]["AFFIX"]["CUE"] == 1 and r["confusion"]["SCOPE"]["SCOPE"] == 1


# --- the generic spaCy span scorer ----------------------------------------------------------

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

"""FairEval counting (Ortmann 2022), step by step as the reference tool: traditional and
fair counts, the BE/LE/LBE matching steps and their quirks, invalid inputs, and properties
of the counts."""
from typing import Any, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_negation.metrics.faireval import FAIR_TYPES, FSpan, count_sentence, count_spans, faireval

from util import fspan


def test_traditional_is_membership_fair_is_one_to_one():
    """Q-F1: a system emitting every span twice has traditional P = 1."""
    target = [[fspan("A", 1, 2), fspan("B", 4, 4)]]
    system = [[fspan("A", 1, 2), fspan("A", 1, 2), fspan("B", 4, 4), fspan("B", 4, 4)]]
    r = faireval(target, system)
    assert (r["traditional"]["TP"], r["traditional"]["FP"], r["traditional"]["FN"]) == (2, 0, 0)
    assert r["traditional"]["p"] == 1.0
    assert (r["fair"]["TP"], r["fair"]["FP"], r["fair"]["FN"]) == (2, 2, 0)
    assert r["fair"]["p"] == 0.5
    assert r["confusion"]["_"] == {"A": 1, "B": 1, "_": 0}


def test_same_bounds_other_tokens_is_fp_and_fn():
    """Q-F2: same label and boundaries, other token set: neither TP, LE nor BE."""
    c = count_sentence([fspan("A", 1, 5, 1, 2, 4, 5)], [fspan("A", 1, 5)])
    assert c.fair.to_dict() == dict.fromkeys(FAIR_TYPES, 0) | {"FP": 1, "FN": 1}


def test_range_overlap_without_shared_token_is_be():
    """Q-F3: a span in the gap of a discontinuous span is a BE (step a)."""
    c = count_sentence([fspan("A", 2, 6, 2, 6)], [fspan("A", 4, 4)])
    assert (c.fair.BE, c.fair.BES, c.fair.FP, c.fair.FN) == (1, 1, 0, 0)


def test_lbe_step_b_and_focus():
    """One long system span of another label over two targets: LBE in step a, then the
    second target against the counted system span's residual tokens (step b)."""
    target, system = [fspan("A", 1, 2), fspan("A", 3, 4)], [fspan("B", 1, 4)]
    for focus, label in (("target", "A"), ("system", "B")):
        c = count_sentence(target, system, focus)
        assert (c.fair.LBE, c.fair.FP, c.fair.FN, c.fair.TP) == (2, 0, 0, 0)
        assert c.per_label_fair[label].LBE == 2
        assert sum(c.per_label_fair[lab].LBE for lab in c.per_label_fair) == 2
        assert c.confusion_matrix()["A"]["B"] == 2


def test_lbe_step_c():
    """Two short system spans of another label in one target: the tie (same similarity and
    length) goes to the first listed (step a), the second matches the residual (step c)."""
    c = count_sentence([fspan("A", 1, 4)], [fspan("B", 1, 2), fspan("C", 3, 4)], "system")
    assert (c.fair.LBE, c.fair.FP, c.fair.FN) == (2, 0, 0)
    assert c.per_label_fair["B"].LBE == 1 and c.per_label_fair["C"].LBE == 1
    assert c.confusion_matrix()["A"] == {"A": 0, "B": 1, "C": 1, "_": 0}
    # without residual tokens nothing is left to match: the other span stays FP
    c = count_sentence([fspan("A", 1, 4, 1, 4)], [fspan("B", 1, 3, 1), fspan("C", 4, 4)])
    assert (c.fair.LBE, c.fair.FP) == (2, 0)
    # spans matched as LE never enter the counted lists: no LBE against them
    c = count_sentence([fspan("A", 1, 2)], [fspan("B", 1, 2, 1), fspan("C", 2, 3)])
    assert (c.fair.LE, c.fair.LBE, c.fair.FP) == (1, 0, 1)


def test_most_similar_beats_list_order():
    """The longer candidate sharing more tokens wins over the shorter one listed first."""
    c = count_sentence([fspan("A", 1, 6)], [fspan("A", 3, 5), fspan("A", 1, 8)])
    assert (c.fair.BE, c.fair.BEL, c.fair.BES, c.fair.FP, c.fair.FN) == (1, 1, 0, 1, 0)


def test_be_is_counted_for_the_target_label_in_step_c():
    """Q-F5: BE (steps a and c) is counted under the target label whatever the focus."""
    c = count_sentence([fspan("A", 1, 5)], [fspan("A", 1, 2), fspan("A", 4, 5)], "system")
    assert (c.fair.BE, c.fair.BES) == (2, 2)
    assert c.per_label_fair["A"].BE == 2


def test_duplicate_target_and_le_order():
    c = count_sentence([fspan("A", 1, 2), fspan("A", 1, 2)], [fspan("A", 1, 2)])
    assert (c.traditional.TP, c.traditional.FP, c.fair.TP, c.fair.FN) == (2, 0, 1, 1)
    # two system spans with the target's boundaries and other labels: the first is the LE
    c = count_sentence([fspan("A", 1, 2)], [fspan("C", 1, 2), fspan("B", 1, 2)], "system")
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
    assert FSpan.from_range("A", 2, 4) == fspan("A", 2, 4, 2, 3, 4)


# --- properties ---------------------------------------------------------------------------
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

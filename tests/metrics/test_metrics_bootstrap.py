"""Bootstrap intervals over sentences (spacy_negation.metrics.bootstrap)."""
import numpy
import pytest

from spacy_negation.cli import main as cli_main
from spacy_negation.metrics.bootstrap import bootstrap_interval, f1_statistic, paired_bootstrap
from spacy_negation.metrics.core import prf

from starsem_systems import files  # noqa: F401  (a fixture)
from util import evaluate_json


def test_f1_statistic_matches_prf():
    rows = [(3, 1, 2), (0, 0, 0), (0, 2, 0), (5, 0, 5)]
    got = f1_statistic(numpy.array(rows, dtype=float))
    assert got.tolist() == pytest.approx([prf(*r)["f"] for r in rows])


def test_constant_sentences_give_a_point_interval():
    # every sentence has the same counts: every resample has the same F1
    ci = bootstrap_interval([(1, 1, 0)] * 20, resamples=200)
    assert ci.value == pytest.approx(2 / 3)
    assert (ci.low, ci.high) == pytest.approx((2 / 3, 2 / 3))


def test_interval_by_hand_two_sentences():
    # two sentences, one right (1,0,0), one wrong (0,1,0): a resample holds k right ones out
    # of 2, F1 = 2k / (2k + (2 - k)); k ~ Binomial(2, 1/2) -> F1 in {0, 2/3, 1}
    ci = bootstrap_interval([(1, 0, 0), (0, 1, 0)], resamples=4000, seed=1)
    assert ci.value == pytest.approx(2 / 3)
    assert ci.low == 0.0 and ci.high == 1.0


def test_seeded_and_contains_value():
    rng = numpy.random.default_rng(3)
    rows = rng.integers(0, 4, size=(200, 3)).tolist()
    a = bootstrap_interval(rows, seed=5)
    assert a == bootstrap_interval(rows, seed=5)
    assert a.low <= a.value <= a.high
    assert a.high - a.low < 0.2


def test_paired():
    good = [(1, 0, 0)] * 30 + [(0, 0, 1)] * 5
    bad = [(0, 1, 1)] * 30 + [(0, 0, 1)] * 5
    d = paired_bootstrap(good, bad)
    assert d.value == pytest.approx(prf(30, 0, 5)["f"] - 0.0)
    assert d.excludes_zero() and d.low > 0
    same = paired_bootstrap(good, good)
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0) and not same.excludes_zero()


def test_paired_length_mismatch():
    with pytest.raises(ValueError, match="differ in length"):
        paired_bootstrap([(1, 0, 0)], [(1, 0, 0), (0, 1, 0)])


def test_empty_and_malformed():
    ci = bootstrap_interval(numpy.zeros((0, 3)))
    assert (ci.value, ci.low, ci.high) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="2-d"):
        bootstrap_interval([1, 2, 3])


# --- bounded samples ----------------------------------------------------------------------
def test_compare_and_seeds_bound_the_samples(files, tmp_path, capsys):
    from spacy_negation.metrics.bootstrap import MAX_SAMPLES, approximate_randomization, resampled_statistics

    gold, a, b = files
    for option in ("--samples", "--ar-samples"):  # a usage error, before any file is read
        assert cli_main(["compare", str(gold), str(a), str(b), option, "1000000000"]) == 2
        err = capsys.readouterr().err
        assert f"[NEG-E971] {option} must be a whole number from 1 to {MAX_SAMPLES}" in err
    ja = evaluate_json(capsys, gold, a, tmp_path / "a.json")
    jb = evaluate_json(capsys, gold, b, tmp_path / "b.json")
    assert cli_main([str(x) for x in ("seeds", ja, jb, "--gold", gold, "--system", a, b,
                                      "--samples", MAX_SAMPLES + 1)]) == 2
    assert "[NEG-E971]" in capsys.readouterr().err

    with pytest.raises(ValueError, match=r"\[NEG-E954\]"):
        resampled_statistics([numpy.ones((3, 2))], [lambda t: t[:, 0]], resamples=10**9, seed=0)
    with pytest.raises(ValueError, match=r"\[NEG-E954\]"):
        approximate_randomization([(numpy.ones((3, 2)), numpy.ones((3, 2)))], [lambda t: t[..., 0]],
                                  samples=10**9)

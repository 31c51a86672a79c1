"""Paired tests of systems and summaries over seeds (spacy_negation.metrics.compare and the
extensions of spacy_negation.metrics.bootstrap), against a case computed by hand."""
from pathlib import Path
from typing import List, Tuple

import numpy
import pytest

from spacy_negation.metrics.bootstrap import (approximate_randomization, paired_bootstrap,
                                              paired_tests, prf_statistic, resample_weights)
from spacy_negation.metrics.compare import (DEFAULT_METRICS, CountTable, columns, compare,
                                            count_table, families_of, metric_names, parse_metric)
from spacy_negation.cli import main
from spacy_negation.metrics.seeds import metric_value, pooled_interval, seed_summary
from spacy_negation.metrics.evaluate import evaluate_files, to_json
from spacy_negation.metrics.nis import NisCounts, nis_scores
from spacy_negation.metrics.starsem.io import iter_aligned

from starsem_systems import files  # noqa: F401  (a fixture)
from util import cli_error, evaluate_json


def table(gold: Path, system: Path, families=("starsem", "nis", "faireval")) -> CountTable:
    return count_table(((g.get_record(), s.get_record()) for g, s in iter_aligned(gold, system)),
                       families)


def column(t: CountTable, name: str) -> List[float]:
    return t.counts[:, t.columns.index(name)].tolist()


# --- the hand-computed case ---------------------------------------------------------------

def test_per_sentence_counts_by_hand(files: Tuple[Path, Path, Path]) -> None:
    gold, a, b = files
    ta, tb = table(gold, a), table(gold, b)
    assert ta.counts.shape == (4, len(columns()))
    # NIS (Sineva et al. 2021): S2 of A matches the cue, p = 1/1, r = 1/2; S3 is missed
    assert column(ta, "nis.gold") == [1, 1, 1, 0]
    assert column(ta, "nis.system") == [1, 1, 0, 0]
    assert column(ta, "nis.sum_p") == [1, 1, 0, 0]
    assert column(ta, "nis.sum_r") == [1, 0.5, 0, 0]
    assert column(ta, "nis.exact") == [1, 0, 0, 0]
    assert column(tb, "nis.system") == [1, 1, 1, 0]
    assert column(tb, "nis.sum_r") == [1, 1, 0.5, 0]
    # *SEM Scopes (cue match): A's S2 scope differs (FN), S3 is unpaired (FN)
    assert column(ta, "starsem.scopes_cue_match.tp") == [1, 0, 0, 0]
    assert column(ta, "starsem.scopes_cue_match.fn") == [0, 1, 1, 0]
    assert column(ta, "starsem.scopes_cue_match.system") == [1, 1, 0, 0]
    # totals, divided once: NIS_tok A: P = 2/2, R = 1.5/3 -> F = 2/3; B: P = 1, R = 2.5/3
    nis_tok = parse_metric("nis.nis_tok.f")
    assert ta.value(nis_tok) == pytest.approx(2 / 3)
    assert tb.value(nis_tok) == pytest.approx(10 / 11)
    # *SEM Scopes B (cue match) of A: P = 1/2 (tp / system), R = 1/3 -> F = 2/5
    assert ta.value(parse_metric("starsem.scopes_cue_match_b.f")) == pytest.approx(2 / 5)


def test_fixed_resample_by_hand(files: Tuple[Path, Path, Path]) -> None:
    """The resample drawing S2, S2, S3, S4: A sums to |G| 3, |S| 2, sum_p 2, sum_r 1
    (F = 1/2); B to |G| 3, |S| 3, sum_p 3, sum_r 2.5 (F = 10/11)."""
    gold, a, b = files
    nis_tok = parse_metric("nis.nis_tok.f")
    weights = numpy.array([[0.0, 2.0, 1.0, 1.0]])
    stat = prf_statistic("f")
    fa = stat(weights @ table(gold, a).forms(nis_tok))[0]
    fb = stat(weights @ table(gold, b).forms(nis_tok))[0]
    assert (fa, fb) == pytest.approx((1 / 2, 10 / 11))


def _nis_tok_f(rows: List[NisCounts]) -> float:
    total = NisCounts()
    for r in rows:
        total += r
    return nis_scores(total)["nis_tok"]["f"]


def test_bootstrap_distribution_by_hand(files: Tuple[Path, Path, Path]) -> None:
    """The interval and p-value equal those of the resampled differences recomputed one by
    one with the NIS module's own division, on the documented draws."""
    gold, a, b = files
    ta, tb = table(gold, a), table(gold, b)
    per_a = [NisCounts(1, 1, 1, 1.0, 1.0, 1), NisCounts(1, 1, 1, 1.0, 0.5, 0), NisCounts(1),
             NisCounts()]
    per_b = [NisCounts(1, 1, 1, 1.0, 1.0, 1), NisCounts(1, 1, 1, 1.0, 1.0, 1),
             NisCounts(1, 1, 1, 1.0, 0.5, 0), NisCounts()]
    n, samples, seed = 4, 500, 7
    draws = numpy.random.default_rng(seed).integers(0, n, size=(samples, n))
    diffs = numpy.array([_nis_tok_f([per_b[i] for i in row]) - _nis_tok_f([per_a[i] for i in row])
                         for row in draws])
    observed = 10 / 11 - 2 / 3
    [result] = compare([("a", ta), ("b", tb)], ["nis.nis_tok.f"], samples=samples,
                       ar_samples=10, seed=seed)
    assert (result.value_a, result.value_b, result.diff) == pytest.approx((2 / 3, 10 / 11, 8 / 33))
    assert (result.ci_low, result.ci_high) == pytest.approx(tuple(numpy.percentile(diffs, [2.5, 97.5])))
    hits = numpy.count_nonzero(numpy.abs(diffs - observed) >= observed - 1e-12)
    assert result.p_bootstrap == pytest.approx((hits + 1) / (samples + 1))
    assert 0 < result.p_bootstrap < 1


def test_resample_weights_are_the_documented_draws() -> None:
    draws = numpy.random.default_rng(3).integers(0, 5, size=(2500, 5))
    blocks = list(resample_weights(5, 2500, 3))
    assert [len(b) for b in blocks] == [1000, 1000, 500]
    got = numpy.vstack(blocks)
    assert got.tolist() == [numpy.bincount(row, minlength=5).tolist() for row in draws]


def test_approximate_randomization_by_hand(files: Tuple[Path, Path, Path]) -> None:
    """Swapping S1 or S4 changes nothing; swapping S2 alone or S3 alone gives both systems
    F = 4/5 (difference 0); swapping both exchanges the systems (|difference| = 8/33). So a
    shuffle reaches the observed difference iff it swaps S2 and S3 alike: exact p = 1/2."""
    gold, a, b = files
    n, samples, seed = 4, 10000, 11
    masks = numpy.random.default_rng(seed).integers(0, 2, size=(samples, n))
    alike = int(numpy.count_nonzero(masks[:, 1] == masks[:, 2]))
    [result] = compare([("a", table(gold, a)), ("b", table(gold, b))], ["nis.nis_tok.f"],
                       samples=10, ar_samples=samples, seed=seed)
    assert result.p_ar == (alike + 1) / (samples + 1)
    assert result.p_ar == pytest.approx(0.5, abs=0.03)


def test_identical_systems_p_is_one(files: Tuple[Path, Path, Path]) -> None:
    gold, a, _ = files
    ta = table(gold, a)
    results = compare([("a", ta), ("a again", ta)], list(metric_names()), samples=200,
                      ar_samples=200)
    assert len(results) == len(metric_names())
    for r in results:
        assert (r.diff, r.ci_low, r.ci_high) == (0.0, 0.0, 0.0), r.metric
        assert r.p_ar == 1.0 and r.p_bootstrap == 1.0, r.metric


def test_clear_difference_is_significant() -> None:
    # 40 sentences B gets right and A wrong: both p-values at their floor 1 / (N + 1)
    good = numpy.array([[1, 1, 1, 1]] * 40, dtype=float)  # P = 1, R = 1
    bad = numpy.array([[0, 1, 0, 1]] * 40, dtype=float)   # P = 0, R = 0
    [t] = paired_tests([(bad, good)], [prf_statistic("f")], resamples=500, ar_samples=500)
    assert (t.base, t.other, t.diff.value) == (0.0, 1.0, 1.0)
    assert t.diff.low == t.diff.high == 1.0 and t.diff.excludes_zero()
    assert t.p_bootstrap == t.p_ar == 1 / 501


def test_paired_tests_agree_with_paired_bootstrap() -> None:
    rng = numpy.random.default_rng(0)
    a = rng.integers(0, 4, size=(300, 3)).astype(float)
    b = rng.integers(0, 4, size=(300, 3)).astype(float)
    from spacy_negation.metrics.bootstrap import f1_statistic

    [t] = paired_tests([(a, b)], [f1_statistic], resamples=1000, ar_samples=50, seed=4)
    ab = paired_bootstrap(b, a, resamples=1000, seed=4)  # b - a
    assert (t.diff.value, t.diff.low, t.diff.high) == pytest.approx((ab.value, ab.low, ab.high))
    assert approximate_randomization([(a, b)], [f1_statistic], samples=50, seed=4) == [t.p_ar]


# --- every metric is the one evaluate computes --------------------------------------------

def test_every_metric_equals_evaluate(files: Tuple[Path, Path, Path]) -> None:
    gold, a, b = files
    for system in (a, b):
        doc = to_json(evaluate_files(gold, system))
        t = table(gold, system)
        for name in metric_names():
            assert t.value(parse_metric(name)) == pytest.approx(metric_value(doc, name),
                                                                abs=1e-12), name


def test_every_metric_equals_evaluate_on_the_reference_cases(shared_dir: Path) -> None:
    cases = sorted((shared_dir / "fixtures" / "reference-scores" / "starsem").glob("*/gold.txt"))
    if not cases:
        pytest.skip("reference-scores fixtures not found")
    for gold in cases:
        system = gold.parent / "system.txt"
        doc = to_json(evaluate_files(gold, system))
        t = table(gold, system)
        for name in metric_names():
            assert t.value(parse_metric(name)) == pytest.approx(metric_value(doc, name),
                                                                abs=1e-12), (gold.parent.name, name)


def test_metric_names() -> None:
    names = metric_names()
    assert set(DEFAULT_METRICS) <= set(names)
    for expected in ("starsem.cues_b.f", "starsem.scope_tokens.f", "starsem.scopes_no_cue_match.p",
                     "starsem.full_negation_b.r", "nis.token_mode.f", "faireval.traditional.f",
                     "faireval.fair.f", "faireval.weighted.f"):
        assert expected in names
    assert len(names) == 3 * (11 + 4 + 3)
    assert families_of(["faireval.fair.f", "nis.cue.p"]) == ("nis", "faireval")


# --- errors -------------------------------------------------------------------------------

def test_bad_metric_and_settings(files: Tuple[Path, Path, Path]) -> None:
    gold, a, b = files
    with pytest.raises(ValueError, match=r"\[NEG-E700\].*nis\.nis_tok"):
        parse_metric("nis.nis_tak.f")
    with pytest.raises(ValueError, match=r"\[NEG-E701\]"):
        parse_metric("nis.nis_tok.g")
    ta = table(gold, a, ("nis",))
    with pytest.raises(ValueError, match=r"\[NEG-E711\]"):
        ta.value(parse_metric("faireval.fair.f"))
    with pytest.raises(ValueError, match=r"\[NEG-E702\]"):
        compare([("a", ta)])
    with pytest.raises(ValueError, match=r"\[NEG-E703\]"):
        compare([("a", ta), ("short", CountTable(ta.families, ta.counts[:3]))])
    with pytest.raises(ValueError, match=r"\[NEG-E704\]"):
        compare([("a", ta), ("b", ta)], samples=0)
    with pytest.raises(ValueError, match=r"\[NEG-E705\]"):
        compare([("a", ta), ("b", ta)], confidence=1.0)
    with pytest.raises(ValueError, match=r"\[NEG-E701\]"):
        prf_statistic("x")


# --- runs over seeds ----------------------------------------------------------------------

def test_seed_summary_and_pooled_interval(files: Tuple[Path, Path, Path]) -> None:
    gold, a, b = files
    s = seed_summary("nis.nis_tok.f", [0.80, 0.84, 0.86])
    # mean 2.5 / 3; deviations -1/30, +1/150, +2/75: sample sd sqrt((sum of squares) / 2)
    assert s.mean == pytest.approx(2.5 / 3)
    assert s.sd == pytest.approx(((1 / 30) ** 2 + (1 / 150) ** 2 + (2 / 75) ** 2) ** 0.5 / 2 ** 0.5)
    assert s.as_dict()["ci"] is None
    with pytest.raises(ValueError, match=r"\[NEG-E709\]"):
        seed_summary("nis.nis_tok.f", [0.8])
    runs = [table(gold, a), table(gold, b)]
    ci = pooled_interval(runs, "nis.nis_tok.f", samples=300, seed=2)
    assert ci.value == pytest.approx((2 / 3 + 10 / 11) / 2)
    # by hand: the mean over the two runs of each documented resample
    draws = numpy.random.default_rng(2).integers(0, 4, size=(300, 4))
    stat = prf_statistic("f")
    spec = parse_metric("nis.nis_tok.f")
    means = [numpy.mean([stat(numpy.bincount(row, minlength=4)[None, :].astype(float)
                              @ t.forms(spec))[0] for t in runs]) for row in draws]
    assert (ci.low, ci.high) == pytest.approx(tuple(numpy.percentile(means, [2.5, 97.5])))


def test_every_metric_equals_evaluate_on_cdsco(cdsco_dir: Path, tmp_path: Path) -> None:
    """Real data (affixal and multiword cues, punctuation in scopes): the per-sentence
    counts sum to evaluate's values for every metric."""
    from spacy_negation.corpora.starsem import read_starsem, write_starsem
    from test_metrics_records import _perturbed

    gold = cdsco_dir / "SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt"
    system = tmp_path / "system.txt"
    write_starsem(_perturbed(read_starsem(gold)), system)
    doc = to_json(evaluate_files(gold, system))
    t = table(gold, system)
    assert len(t.counts) == doc["starsem"]["sentences"]["total"]
    for name in metric_names():
        assert t.value(parse_metric(name)) == pytest.approx(metric_value(doc, name),
                                                            abs=1e-12), name
    assert 0 < metric_value(doc, "nis.nis_tok.f") < 1


# --- seeds: the metrics JSON of the runs are checked --------------------------------------
@pytest.mark.parametrize("value", ["NaN", "Infinity", "1.7", "-0.1", "85.5"])
def test_seeds_refuses_values_that_are_not_fractions(files, tmp_path, capsys, value):
    gold, a, b = files
    ja = evaluate_json(capsys, gold, a, tmp_path / "a.json")
    jb = tmp_path / "b.json"
    jb.write_text('{"nis": {"nis_tok": {"f": %s}}}' % value, encoding="utf-8")
    err = cli_error(capsys, "seeds", ja, jb, "--metric", "nis.nis_tok.f")
    assert "[NEG-E952]" in err and str(jb) in err


def test_seeds_refuses_system_files_of_other_runs(files, tmp_path, capsys):
    gold, a, b = files
    ja = evaluate_json(capsys, gold, a, tmp_path / "a.json")
    jb = evaluate_json(capsys, gold, b, tmp_path / "b.json")
    args = ["--gold", gold, "--metric", "nis.nis_tok.f", "--samples", 50, "--json"]
    assert main([str(x) for x in ["seeds", ja, jb, "--system", a, b, *args]]) == 0
    capsys.readouterr()
    err = cli_error(capsys, "seeds", ja, jb, "--system", b, a, *args)  # swapped
    assert "[NEG-E953]" in err and str(b) in err and str(ja) in err
    err = cli_error(capsys, "seeds", ja, jb, "--system", gold, gold, *args)  # not the runs' at all
    assert "[NEG-E953]" in err

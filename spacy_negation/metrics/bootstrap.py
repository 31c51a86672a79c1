"""Bootstrap confidence intervals and significance tests over sentences, single and paired.

A metric is computed from counts summed over sentences (TP, FP, FN, ...). Resampling the
sentences with replacement and recomputing the metric from the resampled sums gives the
percentile confidence interval (Efron & Tibshirani 1993); resampling the same sentences for
two systems gives the paired interval of their difference (Koehn 2004; Berg-Kirkpatrick et
al. 2012), from which "A beats B" may be said only where it excludes 0. The paired tests
add two p-values: the paired bootstrap's, from the bootstrap distribution of the
difference shifted to mean 0 (Efron & Tibshirani 1993, ch. 16; Berg-Kirkpatrick et al.
2012), and approximate randomization's, which swaps the two systems' counts of each
sentence with probability 1/2 (Noreen 1989; Riezler & Maxwell 2005).

Counting comes first and division once per sample: a resample is a vector of sentence
multiplicities, its sums one matrix product with the per-sentence counts, so any number of
metrics and systems share the same samples at the cost of one product.

Inputs are plain arrays of per-sentence counts: no spaCy here.
"""
from dataclasses import dataclass
from typing import Callable, Iterator, List, Sequence, Tuple, Union

import numpy

from ..errors import Errors
from ..limits import MAX_SAMPLES as LIMIT_SAMPLES

#: A vectorized metric: summed counts of shape (resamples, k) -> values of shape (resamples,).
Statistic = Callable[[numpy.ndarray], numpy.ndarray]
#: Per-sentence counts: one row per sentence (an array or nested sequences).
Counts = Union[numpy.ndarray, Sequence[Sequence[float]]]
#: Resamples per block of the matrix products (bounds the memory to block x sentences).
BLOCK = 1000
#: The most bootstrap resamples or randomization shuffles one call takes: the bootstrap
#: keeps one value per resample and statistic (8 MB per statistic at this limit), and
#: both run time linear in the number; far beyond what an interval or p-value needs
#: (:data:`spacy_negation.limits.MAX_SAMPLES`, the bound of ``--samples``).
MAX_SAMPLES = LIMIT_SAMPLES
#: Ties of a resampled difference with the observed one are decided with this tolerance
#: (sums of fractional counts, e.g. NIS_tok's, differ in the last bits by summation order).
TIE_TOLERANCE = 1e-12


def f1_statistic(totals: numpy.ndarray) -> numpy.ndarray:
    """F1 from summed (TP, FP, FN) columns, 0.0 where precision and recall are both 0.

    totals (numpy.ndarray): shape (n, 3), columns TP, FP, FN.
    RETURNS (numpy.ndarray): shape (n,), F1 as fractions.
    """
    tp, fp, fn = (totals[:, k].astype(float) for k in range(3))
    den = 2 * tp + fp + fn
    return numpy.divide(2 * tp, den, out=numpy.zeros_like(tp), where=den > 0)


def _ratio(num: numpy.ndarray, den: numpy.ndarray) -> numpy.ndarray:
    return numpy.divide(num, den, out=numpy.zeros_like(num), where=den != 0)


def prf_statistic(value: str) -> Statistic:
    """A metric of summed (P numerator, P denominator, R numerator, R denominator) columns:
    P, R or their harmonic mean F, each 0.0 on a zero denominator (as
    :func:`spacy_negation.metrics.core.prf`). Every metric of the package is of this form,
    its four columns linear in its counts (e.g. the *SEM B rows divide TP by the system
    count, NIS_tok divides summed instance precisions by |S|).

    value (str): "p", "r" or "f".
    RETURNS (Statistic): the vectorized metric of totals of shape (n, 4).
    """
    if value not in ("p", "r", "f"):
        raise ValueError(Errors.E701.format(name=value, value=value))

    def statistic(totals: numpy.ndarray) -> numpy.ndarray:
        t = totals.astype(float)
        p = _ratio(t[:, 0], t[:, 1])
        r = _ratio(t[:, 2], t[:, 3])
        if value == "p":
            return p
        if value == "r":
            return r
        return _ratio(2 * p * r, p + r)

    return statistic


@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile bootstrap interval.

    value (float): the metric on the full sample.
    low (float): the lower bound.
    high (float): the upper bound.
    """

    value: float
    low: float
    high: float

    def excludes_zero(self) -> bool:
        """Whether the interval lies entirely on one side of 0."""
        return self.low > 0 or self.high < 0


@dataclass(frozen=True)
class PairedTest:
    """Two systems on the same sentences: their metric, the paired bootstrap interval of
    the difference and the two p-values (two-sided, null hypothesis: no difference).

    base (float): the metric of the base system on all sentences.
    other (float): the metric of the other system.
    diff (Interval): other - base with its paired bootstrap interval.
    p_bootstrap (float): the paired bootstrap p-value.
    p_ar (float): the approximate randomization p-value.
    """

    base: float
    other: float
    diff: Interval
    p_bootstrap: float
    p_ar: float


def _as_counts(counts: Counts) -> numpy.ndarray:
    array = numpy.asarray(counts, dtype=float)
    if array.ndim != 2:
        raise ValueError(f"per-sentence counts must be a 2-d table, got shape {array.shape}")
    return array


def resample_weights(n: int, resamples: int, seed: int, block: int = BLOCK
                     ) -> Iterator[numpy.ndarray]:
    """Bootstrap resamples of n sentences as multiplicities, block by block: row k counts
    how often each sentence is drawn in resample k (n draws with replacement). The draws
    are those of ``numpy.random.default_rng(seed).integers(0, n, size=(resamples, n))``.

    n (int): the number of sentences (> 0).
    resamples (int): the number of resamples.
    seed (int): the random seed.
    block (int): resamples per yielded block.
    YIELDS (numpy.ndarray): shape (<= block, n), float multiplicities summing to n per row.
    """
    rng = numpy.random.default_rng(seed)
    done = 0
    while done < resamples:
        rows = min(block, resamples - done)
        idx = rng.integers(0, n, size=(rows, n))
        flat = (idx + (numpy.arange(rows) * n)[:, None]).ravel()
        yield numpy.bincount(flat, minlength=rows * n).reshape(rows, n).astype(float)
        done += rows


def swap_masks(n: int, samples: int, seed: int, block: int = BLOCK) -> Iterator[numpy.ndarray]:
    """Approximate randomization shuffles block by block: row k is 1 where sample k swaps
    the two systems' counts of a sentence (probability 1/2 each, independently).

    n (int): the number of sentences.
    samples (int): the number of shuffles.
    seed (int): the random seed.
    block (int): shuffles per yielded block.
    YIELDS (numpy.ndarray): shape (<= block, n), floats 0.0 or 1.0.
    """
    rng = numpy.random.default_rng(seed)
    done = 0
    while done < samples:
        rows = min(block, samples - done)
        yield rng.integers(0, 2, size=(rows, n)).astype(float)
        done += rows


def check_samples(option: str, value: int) -> None:
    """Refuse a number of resamples or shuffles beyond MAX_SAMPLES (E954).

    option (str): the option's name, for the message.
    value (int): the number.
    """
    if value > MAX_SAMPLES:
        raise ValueError(Errors.E954.format(option=option, value=value, limit=MAX_SAMPLES))


def resampled_statistics(tables: Sequence[numpy.ndarray], statistics: Sequence[Statistic], *,
                         resamples: int, seed: int) -> numpy.ndarray:
    """Each statistic of its own per-sentence table on the same bootstrap resamples.

    tables (Sequence[numpy.ndarray]): per-sentence counts, all with the same rows.
    statistics (Sequence[Statistic]): the metric of each table.
    resamples (int): number of bootstrap samples.
    seed (int): the random seed (see :func:`resample_weights`).
    RETURNS (numpy.ndarray): shape (len(tables), resamples), the resampled values.
    RAISES (ValueError): more than MAX_SAMPLES resamples (E954).
    """
    check_samples("resamples", resamples)
    out = numpy.empty((len(tables), resamples))
    if not tables:
        return out
    widths = [t.shape[1] for t in tables]
    stacked = numpy.hstack(tables)
    cuts = numpy.cumsum([0] + widths)
    done = 0
    for w in resample_weights(len(stacked), resamples, seed):
        totals = w @ stacked
        for j, stat in enumerate(statistics):
            out[j, done:done + len(w)] = stat(totals[:, cuts[j]:cuts[j + 1]])
        done += len(w)
    return out


def percentile_bounds(values: numpy.ndarray, confidence: float) -> Tuple[float, float]:
    """The percentile interval of resampled values (Efron & Tibshirani 1993).

    values (numpy.ndarray): the resampled values.
    confidence (float): the coverage, e.g. 0.95: the 2.5th and 97.5th percentiles.
    RETURNS (Tuple[float, float]): the lower and upper bound.
    """
    tail = 100 * (1 - confidence) / 2
    low, high = numpy.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def _value(statistic: Statistic, array: numpy.ndarray) -> float:
    return float(statistic(array.sum(axis=0, keepdims=True))[0])


def bootstrap_interval(counts: Sequence[Sequence[float]], statistic: Statistic = f1_statistic, *,
                       resamples: int = 1000, confidence: float = 0.95, seed: int = 0) -> Interval:
    """The percentile bootstrap interval of a metric over sentences.

    counts (Sequence[Sequence[float]]): one row of counts per sentence.
    statistic (Statistic): the metric of summed counts (default: F1 of TP, FP, FN).
    resamples (int): number of bootstrap samples.
    confidence (float): the interval's coverage, e.g. 0.95.
    seed (int): the random seed (the same seed draws the same samples).
    RETURNS (Interval): the metric on all sentences and its interval.
    """
    array = _as_counts(counts)
    value = _value(statistic, array)
    if len(array) == 0:
        return Interval(value, value, value)
    values = resampled_statistics([array], [statistic], resamples=resamples, seed=seed)[0]
    return Interval(value, *percentile_bounds(values, confidence))


def paired_bootstrap(counts_a: Sequence[Sequence[float]], counts_b: Sequence[Sequence[float]],
                     statistic: Statistic = f1_statistic, *, resamples: int = 1000,
                     confidence: float = 0.95, seed: int = 0) -> Interval:
    """The paired bootstrap interval of metric(A) - metric(B) over the same sentences.

    counts_a, counts_b (Sequence[Sequence[float]]): per-sentence counts of the two systems,
        row k of both for sentence k.
    statistic (Statistic): the metric of summed counts.
    resamples (int): number of bootstrap samples.
    confidence (float): the interval's coverage.
    seed (int): the random seed.
    RETURNS (Interval): the difference on all sentences and its interval.
    """
    a, b = _paired(counts_a, counts_b)
    value = _value(statistic, a) - _value(statistic, b)
    if len(a) == 0:
        return Interval(value, value, value)
    values = resampled_statistics([a, b], [statistic, statistic], resamples=resamples, seed=seed)
    return Interval(value, *percentile_bounds(values[0] - values[1], confidence))


def _paired(counts_a: Counts, counts_b: Counts) -> Tuple[numpy.ndarray, numpy.ndarray]:
    a, b = _as_counts(counts_a), _as_counts(counts_b)
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)} sentences")
    return a, b


def bootstrap_p_value(observed: float, resampled: numpy.ndarray) -> float:
    """The two-sided paired bootstrap p-value of a difference: the share of resampled
    differences at least as far from the observed one as the observed one is from 0 (the
    bootstrap distribution shifted to the null hypothesis, Efron & Tibshirani 1993 ch. 16),
    with the (r + 1) / (N + 1) rule.

    observed (float): the difference on all sentences.
    resampled (numpy.ndarray): the differences of the resamples.
    RETURNS (float): the p-value, in (0, 1].
    """
    r = int(numpy.count_nonzero(numpy.abs(resampled - observed)
                                >= abs(observed) - TIE_TOLERANCE))
    return (r + 1) / (len(resampled) + 1)


def approximate_randomization(pairs: Sequence[Tuple[numpy.ndarray, numpy.ndarray]],
                              statistics: Sequence[Statistic], *, samples: int = 10000,
                              seed: int = 0) -> List[float]:
    """Approximate randomization p-values (Noreen 1989; Riezler & Maxwell 2005) of
    metric(other) - metric(base) for several pairs on the same shuffles: each shuffle swaps
    the two systems' counts of each sentence with probability 1/2; r counts the shuffles
    whose absolute difference reaches the observed one; p = (r + 1) / (N + 1).

    pairs (Sequence[Tuple[numpy.ndarray, numpy.ndarray]]): (base, other) per-sentence
        counts, all with the same rows.
    statistics (Sequence[Statistic]): the metric of each pair.
    samples (int): the number of shuffles N.
    seed (int): the random seed.
    RETURNS (List[float]): one p-value per pair, in (0, 1].
    RAISES (ValueError): more than MAX_SAMPLES shuffles (E954).
    """
    check_samples("samples", samples)
    if not pairs:
        return []
    deltas = numpy.hstack([other - base for base, other in pairs])
    cuts = numpy.cumsum([0] + [base.shape[1] for base, _ in pairs])
    base_totals = [base.sum(axis=0) for base, _ in pairs]
    other_totals = [other.sum(axis=0) for _, other in pairs]
    observed = [abs(_value(stat, other) - _value(stat, base)) - TIE_TOLERANCE
                for stat, (base, other) in zip(statistics, pairs)]
    hits = [0] * len(pairs)
    for mask in swap_masks(len(deltas), samples, seed):
        moved = mask @ deltas
        for j, stat in enumerate(statistics):
            m = moved[:, cuts[j]:cuts[j + 1]]
            diff = stat(other_totals[j] - m) - stat(base_totals[j] + m)
            hits[j] += int(numpy.count_nonzero(numpy.abs(diff) >= observed[j]))
    return [(r + 1) / (samples + 1) for r in hits]


def paired_tests(pairs: Sequence[Tuple[Counts, Counts]],
                 statistics: Sequence[Statistic], *, resamples: int = 10000,
                 ar_samples: int = 10000, confidence: float = 0.95, seed: int = 0
                 ) -> List[PairedTest]:
    """Paired bootstrap and approximate randomization for several (base, other) pairs of
    per-sentence counts, each with its metric; all pairs share the bootstrap resamples
    and the shuffles.

    pairs (Sequence[Tuple[Counts, Counts]]): (base, other) per-sentence counts, all with
        the same number of sentences.
    statistics (Sequence[Statistic]): the metric of each pair.
    resamples (int): bootstrap samples.
    ar_samples (int): approximate randomization shuffles.
    confidence (float): the interval's coverage.
    seed (int): the random seed of both procedures.
    RETURNS (List[PairedTest]): one per pair, in order.
    """
    arrays = [_paired(a, b) for a, b in pairs]
    n = {len(a) for a, _ in arrays}
    if len(n) > 1:
        raise ValueError(f"paired samples differ in length: {sorted(n)} sentences")
    tables = [t for a, b in arrays for t in (a, b)]
    stats = [s for s in statistics for _ in (0, 1)]
    if n == {0}:
        values = numpy.zeros((len(tables), 1))
    else:
        values = resampled_statistics(tables, stats, resamples=resamples, seed=seed)
    p_ar = approximate_randomization(arrays, statistics, samples=ar_samples, seed=seed)
    out = []
    for j, ((a, b), stat) in enumerate(zip(arrays, statistics)):
        base, other = _value(stat, a), _value(stat, b)
        diffs = values[2 * j + 1] - values[2 * j]
        out.append(PairedTest(base, other, Interval(other - base, *percentile_bounds(diffs, confidence)),
                              bootstrap_p_value(other - base, diffs), p_ar[j]))
    return out

"""Bootstrap confidence intervals over sentences, single and paired.

A metric is computed from counts summed over sentences (TP, FP, FN, ...). Resampling the
sentences with replacement and recomputing the metric from the resampled sums gives the
percentile confidence interval (Efron & Tibshirani 1993); resampling the same sentences for
two systems gives the paired interval of their difference (Koehn 2004; Berg-Kirkpatrick et
al. 2012), from which "A beats B" may be said only where it excludes 0.

Inputs are plain arrays of per-sentence counts: no spaCy here.
"""
from dataclasses import dataclass
from typing import Callable, Sequence, Tuple

import numpy

#: A vectorized metric: summed counts of shape (resamples, k) -> values of shape (resamples,).
Statistic = Callable[[numpy.ndarray], numpy.ndarray]


def f1_statistic(totals: numpy.ndarray) -> numpy.ndarray:
    """F1 from summed (TP, FP, FN) columns, 0.0 where precision and recall are both 0.

    totals (numpy.ndarray): shape (n, 3), columns TP, FP, FN.
    RETURNS (numpy.ndarray): shape (n,), F1 as fractions.
    """
    tp, fp, fn = (totals[:, k].astype(float) for k in range(3))
    den = 2 * tp + fp + fn
    return numpy.divide(2 * tp, den, out=numpy.zeros_like(tp), where=den > 0)


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


def _as_counts(counts: Sequence[Sequence[float]]) -> numpy.ndarray:
    array = numpy.asarray(counts, dtype=float)
    if array.ndim != 2:
        raise ValueError(f"per-sentence counts must be a 2-d table, got shape {array.shape}")
    return array


def _resample_indices(n: int, resamples: int, seed: int) -> numpy.ndarray:
    rng = numpy.random.default_rng(seed)
    return rng.integers(0, n, size=(resamples, n))


def _percentiles(values: numpy.ndarray, confidence: float) -> Tuple[float, float]:
    tail = 100 * (1 - confidence) / 2
    low, high = numpy.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


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
    value = float(statistic(array.sum(axis=0, keepdims=True))[0])
    if len(array) == 0:
        return Interval(value, value, value)
    idx = _resample_indices(len(array), resamples, seed)
    values = statistic(array[idx].sum(axis=1))
    return Interval(value, *_percentiles(values, confidence))


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
    a, b = _as_counts(counts_a), _as_counts(counts_b)
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)} sentences")
    value = float(statistic(a.sum(axis=0, keepdims=True))[0] - statistic(b.sum(axis=0, keepdims=True))[0])
    if len(a) == 0:
        return Interval(value, value, value)
    idx = _resample_indices(len(a), resamples, seed)
    values = statistic(a[idx].sum(axis=1)) - statistic(b[idx].sum(axis=1))
    return Interval(value, *_percentiles(values, confidence))

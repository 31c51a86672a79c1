"""Runs over seeds: the mean and standard deviation of a metric over training runs, and the
pooled bootstrap interval of the mean over sentences (the runs scored on the same gold)."""
import math
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy

from ..errors import Errors
from .bootstrap import Interval, percentile_bounds, prf_statistic, resampled_statistics
from .compare import CountTable, _check_settings, _check_tables, parse_metric


def metric_value(document: Mapping[str, Any], name: str, source: str = "<json>") -> float:
    """A metric of an ``evaluate --json`` document (or of a document holding one under
    "detail", as the project's metrics files do).

    document (Mapping[str, Any]): the parsed JSON.
    name (str): the metric name, ``FAMILY.ROW.VALUE``.
    source (str): the file name for messages.
    RETURNS (float): the value.
    RAISES (ValueError): the metric is missing (E707), not a number (E708), or not a
        finite fraction in [0, 1] (E952: the documents hold P, R and F1 as fractions).
    """
    spec = parse_metric(name)
    doc: Any = document
    if isinstance(doc, Mapping) and spec.family not in doc and isinstance(doc.get("detail"), Mapping):
        doc = doc["detail"]
    for key in spec.name.split("."):
        if not isinstance(doc, Mapping) or key not in doc:
            raise ValueError(Errors.E707.format(path=source, name=name))
        doc = doc[key]
    if isinstance(doc, bool) or not isinstance(doc, (int, float)):
        raise ValueError(Errors.E708.format(path=source, name=name, value=doc))
    value = float(doc)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(Errors.E952.format(path=source, name=name, value=doc))
    return value


#: How far a run's metric in its JSON file and the same metric counted from its system
#: file may differ (a JSON file may hold rounded values): 0.05 points.
MATCH_TOLERANCE = 5e-4


def check_runs_match(metric: str, values: Sequence[float], runs: Sequence[CountTable],
                     names: Sequence[Tuple[str, str]]) -> None:
    """Check that each run's system file gives the metric its JSON file holds, so that a
    pooled interval is never computed from system files of other runs.

    metric (str): the metric name.
    values (Sequence[float]): the metric of each run, from its JSON file.
    runs (Sequence[CountTable]): the counts of each run's system file, in the same order.
    names (Sequence[Tuple[str, str]]): (JSON file, system file) of each run, for messages.
    RAISES (ValueError): a run whose two values differ by more than MATCH_TOLERANCE (E953).
    """
    spec = parse_metric(metric)
    for value, table, (json_path, system_path) in zip(values, runs, names):
        counted = table.value(spec)
        if not abs(counted - value) <= MATCH_TOLERANCE:
            raise ValueError(Errors.E953.format(system=system_path, json=json_path, name=metric,
                                                counted=counted, value=value))


@dataclass(frozen=True)
class SeedSummary:
    """One metric over runs (fractions).

    metric (str): the metric name.
    values (Tuple[float, ...]): the value of each run, in order.
    mean (float): their mean.
    sd (float): their sample standard deviation (n - 1 in the denominator).
    interval (Optional[Interval]): the pooled bootstrap interval of the mean, when the
        runs' system files were counted (:func:`pooled_interval`).
    """

    metric: str
    values: Tuple[float, ...]
    mean: float
    sd: float
    interval: Optional[Interval] = None

    def as_dict(self) -> Dict[str, Any]:
        """JSON-ready: {"values", "mean", "sd", "ci": {"value", "low", "high"} or None}."""
        ci = self.interval
        return {"values": list(self.values), "mean": self.mean, "sd": self.sd,
                "ci": None if ci is None else {"value": ci.value, "low": ci.low,
                                               "high": ci.high}}


def seed_summary(metric: str, values: Sequence[float],
                 interval: Optional[Interval] = None) -> SeedSummary:
    """Mean and sample standard deviation of a metric over runs.

    metric (str): the metric name.
    values (Sequence[float]): one value per run (at least two).
    interval (Optional[Interval]): the pooled interval, if any.
    RETURNS (SeedSummary): the summary.
    RAISES (ValueError): fewer than two runs (E709).
    """
    if len(values) < 2:
        raise ValueError(Errors.E709.format(n=len(values)))
    arr = numpy.asarray(values, dtype=float)
    return SeedSummary(metric, tuple(float(v) for v in arr), float(arr.mean()),
                       float(arr.std(ddof=1)), interval)


def pooled_interval(runs: Sequence[CountTable], metric: str, *, samples: int = 10000,
                    seed: int = 0, confidence: float = 0.95) -> Interval:
    """The bootstrap interval of the runs' mean metric over sentences: each resample of
    the gold sentences is scored for every run (the same resample for all), and the mean
    over runs is taken per resample.

    runs (Sequence[CountTable]): the per-sentence counts of each run on the same gold.
    metric (str): the metric name.
    samples (int): bootstrap samples.
    seed (int): the random seed.
    confidence (float): the interval's coverage.
    RETURNS (Interval): the mean over runs on all sentences and its interval.
    """
    _check_settings(samples, 1, confidence)
    if not runs:
        raise ValueError(Errors.E709.format(n=0))
    _check_tables([(f"run {k + 1}", t) for k, t in enumerate(runs)])
    spec = parse_metric(metric)
    tables = [t.forms(spec) for t in runs]
    value = float(numpy.mean([t.value(spec) for t in runs]))
    if len(tables[0]) == 0:
        return Interval(value, value, value)
    stat = prf_statistic(spec.value)
    means = resampled_statistics(tables, [stat] * len(tables), resamples=samples,
                                 seed=seed).mean(axis=0)
    return Interval(value, *percentile_bounds(means, confidence))

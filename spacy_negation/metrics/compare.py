"""Systems compared on the same gold sentences: paired significance tests for any metric
of the package, and summaries of runs over seeds. Plain inputs, no I/O, no spaCy.

Sineva et al. (2021) compare negation resolvers system against system; single runs and
point scores cannot carry such a claim. Here every system is counted once, sentence by
sentence (:func:`count_table`: the counts of the *SEM 2012 rows, Morante & Blanco 2012;
of NIS, Sineva et al. 2021; of FairEval on negation spans, Ortmann 2022 -- exactly those
``evaluate`` sums); a metric is then P, R or F of four linear forms of those counts
(:class:`MetricSpec`), so resampling only sums count vectors and divides once per sample
(:func:`spacy_negation.metrics.bootstrap.paired_tests`: paired bootstrap, Koehn 2004,
Berg-Kirkpatrick et al. 2012; approximate randomization, Noreen 1989, Riezler & Maxwell
2005).

Metric names are the paths of the ``evaluate --json`` document: ``FAMILY.ROW.VALUE``, e.g.
``nis.nis_tok.f``, ``starsem.scopes_cue_match_b.f``, ``starsem.scope_tokens.p``,
``faireval.fair.f`` (VALUE ``p``, ``r`` or ``f``; see :func:`metric_names`).
"""
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Sequence, Tuple

import numpy

from ..errors import Errors
from .bootstrap import check_samples, paired_tests, prf_statistic
from .evaluate import FAMILIES, Evaluation
from .faireval.spans import FAIR_TYPES, TRADITIONAL_TYPES
from .nis import NisCounts
from .records import SentenceRecord
from .starsem.counts import Count

#: The default metrics of ``compare``: NIS_tok F1, NIS_ex F1, *SEM Scopes B (cue match) F1.
DEFAULT_METRICS: Tuple[str, ...] = ("nis.nis_tok.f", "nis.nis_ex.f", "starsem.scopes_cue_match_b.f")
#: The values of a metric row.
VALUES: Tuple[str, ...] = ("p", "r", "f")

#: The *SEM rows (counts of a main row; the B rows divide TP by the system count).
_STARSEM_MAIN = ("cues", "scopes_cue_match", "scopes_no_cue_match", "scope_tokens", "negated",
                 "full_negation")
_STARSEM_B = ("cues_b", "scopes_cue_match_b", "scopes_no_cue_match_b", "negated_b",
              "full_negation_b")
_STARSEM_FIELDS = Count.names()
_NIS_FIELDS = NisCounts.names()

#: A linear form of counts: column name -> coefficient.
Form = Dict[str, float]


def columns(families: Sequence[str] = FAMILIES) -> Tuple[str, ...]:
    """The count columns of the given families, in family order: ``starsem.ROW.FIELD``
    (gold, system, tp, fp, fn of each main row), ``nis.FIELD`` (the fields of
    :class:`~spacy_negation.metrics.nis.NisCounts`), ``faireval.traditional.T`` (TP, FP,
    FN) and ``faireval.fair.T`` (the nine FairEval categories).

    families (Sequence[str]): any of "starsem", "nis", "faireval".
    RETURNS (Tuple[str, ...]): the column names.
    """
    out: List[str] = []
    for family in FAMILIES:
        if family not in families:
            continue
        if family == "starsem":
            out += [f"starsem.{row}.{f}" for row in _STARSEM_MAIN for f in _STARSEM_FIELDS]
        elif family == "nis":
            out += [f"nis.{f}" for f in _NIS_FIELDS]
        else:
            out += [f"faireval.traditional.{t}" for t in TRADITIONAL_TYPES]
            out += [f"faireval.fair.{t}" for t in FAIR_TYPES]
    return tuple(out)


def _weighted(prefix: str, weights: Mapping[str, Mapping[str, float]]
              ) -> Tuple[Form, Form, Form, Form]:
    """The FairEval forms (Ortmann 2022): tp* = sum_e W[e][TP] n_e (likewise fp*, fn*),
    P = tp* / (tp* + fp*), R = tp* / (tp* + fn*)."""
    tp: Form = {}
    fp: Form = {}
    fn: Form = {}
    for err, w in weights.items():
        for form, cat in ((tp, "TP"), (fp, "FP"), (fn, "FN")):
            if w.get(cat, 0):
                key = f"{prefix}.{err}"
                form[key] = form.get(key, 0.0) + float(w[cat])
    return tp, _plus(tp, fp), tp, _plus(tp, fn)


def _plus(a: Form, b: Form) -> Form:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) + v
    return out


def _rows() -> Dict[str, Tuple[str, Tuple[Form, Form, Form, Form]]]:
    """Every metric row: "FAMILY.ROW" -> (family, (P numerator, P denominator,
    R numerator, R denominator))."""
    from .faireval import FAIR_WEIGHTS, PAPER_WEIGHTS, TRADITIONAL_WEIGHTS

    rows: Dict[str, Tuple[str, Tuple[Form, Form, Form, Form]]] = {}
    for row in _STARSEM_MAIN:
        c = {f: f"starsem.{row}.{f}" for f in _STARSEM_FIELDS}
        tp = {c["tp"]: 1.0}
        rows[f"starsem.{row}"] = ("starsem", (tp, _plus(tp, {c["fp"]: 1.0}), tp,
                                              _plus(tp, {c["fn"]: 1.0})))
    for row in _STARSEM_B:
        base = rows[f"starsem.{row[:-2]}"][1]
        rows[f"starsem.{row}"] = ("starsem", (base[0], {f"starsem.{row[:-2]}.system": 1.0},
                                              base[2], base[3]))
    for row, num_p, den_p, num_r, den_r in (
            ("cue", "matched", "system", "matched", "gold"),
            ("nis_tok", "sum_p", "system", "sum_r", "gold"),
            ("nis_ex", "exact", "system", "exact", "gold"),
            ("token_mode", "matched_tokens", "system_tokens", "matched_tokens", "gold_tokens")):
        rows[f"nis.{row}"] = ("nis", ({f"nis.{num_p}": 1.0}, {f"nis.{den_p}": 1.0},
                                      {f"nis.{num_r}": 1.0}, {f"nis.{den_r}": 1.0}))
    rows["faireval.traditional"] = ("faireval", _weighted("faireval.traditional",
                                                          TRADITIONAL_WEIGHTS))
    rows["faireval.fair"] = ("faireval", _weighted("faireval.fair", FAIR_WEIGHTS))
    rows["faireval.weighted"] = ("faireval", _weighted("faireval.fair", PAPER_WEIGHTS))
    return rows


def metric_names() -> Tuple[str, ...]:
    """Every metric name ``compare`` and ``seeds`` accept (``FAMILY.ROW.VALUE``).

    RETURNS (Tuple[str, ...]): the names, by family and row, VALUE p, r, f.
    """
    return tuple(f"{row}.{v}" for row in _rows() for v in VALUES)


class MetricSpec(NamedTuple):
    """A metric as P, R or F of four linear forms of the per-sentence counts.

    name (str): ``FAMILY.ROW.VALUE``.
    family (str): the family whose counts it needs.
    value (str): "p", "r" or "f".
    forms (Tuple[Form, Form, Form, Form]): P numerator, P denominator, R numerator,
        R denominator, each column -> coefficient.
    """

    name: str
    family: str
    value: str
    forms: Tuple[Form, Form, Form, Form]

    def matrix(self, cols: Sequence[str]) -> numpy.ndarray:
        """The forms as a (len(cols), 4) matrix over the given columns.

        cols (Sequence[str]): the count columns of a :class:`CountTable`.
        RETURNS (numpy.ndarray): the matrix (counts @ matrix = the four forms).
        """
        index = {c: k for k, c in enumerate(cols)}
        out = numpy.zeros((len(cols), 4))
        for j, form in enumerate(self.forms):
            for col, coef in form.items():
                out[index[col], j] += coef
        return out


def parse_metric(name: str) -> MetricSpec:
    """The metric of a name.

    name (str): ``FAMILY.ROW.VALUE``, e.g. "nis.nis_tok.f".
    RETURNS (MetricSpec): the metric.
    RAISES (ValueError): an unknown row (E700) or value (E701).
    """
    rows = _rows()
    row, _, value = name.rpartition(".")
    if name in rows:
        raise ValueError(Errors.E701.format(name=name, value=""))
    if row not in rows:
        raise ValueError(Errors.E700.format(name=name, options=", ".join(rows)))
    if value not in VALUES:
        raise ValueError(Errors.E701.format(name=name, value=value))
    family, forms = rows[row]
    return MetricSpec(name, family, value, forms)


class CountTable(NamedTuple):
    """Per-sentence counts of one system against the gold.

    families (Tuple[str, ...]): the families counted.
    counts (numpy.ndarray): shape (sentences, len(columns(families))).
    """

    families: Tuple[str, ...]
    counts: numpy.ndarray

    @property
    def columns(self) -> Tuple[str, ...]:
        """The names of the count columns."""
        return columns(self.families)

    def forms(self, metric: MetricSpec) -> numpy.ndarray:
        """The metric's four forms per sentence.

        metric (MetricSpec): the metric.
        RETURNS (numpy.ndarray): shape (sentences, 4).
        RAISES (ValueError): its family was not counted (E711).
        """
        if metric.family not in self.families:
            raise ValueError(Errors.E711.format(name=metric.name, family=metric.family,
                                                families=", ".join(self.families) or "none"))
        return self.counts @ metric.matrix(self.columns)

    def value(self, metric: MetricSpec) -> float:
        """The metric on all sentences (counts summed first, divided once).

        metric (MetricSpec): the metric.
        RETURNS (float): the value, a fraction.
        """
        totals = self.forms(metric).sum(axis=0, keepdims=True)
        return float(prf_statistic(metric.value)(totals)[0])


def sentence_counts(gold: SentenceRecord, system: SentenceRecord,
                    families: Sequence[str] = FAMILIES) -> List[float]:
    """One sentence pair's counts, as ``evaluate`` counts it (:class:`~.evaluate.Evaluation`).

    gold (SentenceRecord): the gold record.
    system (SentenceRecord): the system record on the same tokens.
    families (Sequence[str]): the families to count.
    RETURNS (List[float]): one value per column of :func:`columns`.
    """
    ev = Evaluation(families)
    ev.add(gold, system)
    out: List[float] = []
    if ev.starsem is not None:
        for row in _STARSEM_MAIN:
            c = ev.starsem.row(row)
            out += [c.gold, c.system, c.tp, c.fp, c.fn]
    if ev.nis is not None:
        out += [getattr(ev.nis, f) for f in _NIS_FIELDS]
    if ev.faireval is not None:
        out += [getattr(ev.faireval.traditional, t) for t in TRADITIONAL_TYPES]
        out += [getattr(ev.faireval.fair, t) for t in FAIR_TYPES]
    return out


def count_table(pairs: Iterable[Tuple[SentenceRecord, SentenceRecord]],
                families: Sequence[str] = FAMILIES) -> CountTable:
    """The per-sentence counts of a system (a sentence without negation on either side
    counts nothing).

    pairs (Iterable[Tuple[SentenceRecord, SentenceRecord]]): (gold, system) records per
        sentence, in order.
    families (Sequence[str]): the families to count.
    RETURNS (CountTable): the table.
    """
    fams = tuple(f for f in FAMILIES if f in families)
    width = len(columns(fams))
    rows = [sentence_counts(g, s, fams) if (g.instances or s.instances) else [0.0] * width
            for g, s in pairs]
    return CountTable(fams, numpy.array(rows, dtype=float).reshape(len(rows), width))


def families_of(metrics: Sequence[str]) -> Tuple[str, ...]:
    """The families the metrics need, in family order.

    metrics (Sequence[str]): metric names.
    RETURNS (Tuple[str, ...]): the families.
    """
    needed = {parse_metric(m).family for m in metrics}
    return tuple(f for f in FAMILIES if f in needed)


@dataclass(frozen=True)
class Comparison:
    """System B against system A on one metric (fractions).

    metric (str): the metric name.
    a (str): the name of system A (the first system).
    b (str): the name of system B.
    value_a (float): the metric of A.
    value_b (float): the metric of B.
    diff (float): value_b - value_a.
    ci_low (float): the lower bound of the paired bootstrap interval of diff.
    ci_high (float): its upper bound.
    p_bootstrap (float): the paired bootstrap p-value (two-sided).
    p_ar (float): the approximate randomization p-value (two-sided).
    """

    metric: str
    a: str
    b: str
    value_a: float
    value_b: float
    diff: float
    ci_low: float
    ci_high: float
    p_bootstrap: float
    p_ar: float

    def as_dict(self) -> Dict[str, Any]:
        """The comparison as a JSON-ready dict (the field names as keys)."""
        return dict(self.__dict__)


def _check_settings(samples: int, ar_samples: int, confidence: float) -> None:
    for option, value in (("--samples", samples), ("--ar-samples", ar_samples)):
        if value < 1:
            raise ValueError(Errors.E704.format(option=option, value=value))
        check_samples(option, value)
    if not 0 < confidence < 1:
        raise ValueError(Errors.E705.format(value=confidence))


def _check_tables(tables: Sequence[Tuple[str, CountTable]]) -> int:
    first, table = tables[0]
    for name, other in tables[1:]:
        if len(other.counts) != len(table.counts):
            raise ValueError(Errors.E703.format(name=name, n=len(other.counts), first=first,
                                                m=len(table.counts)))
    return len(table.counts)


def compare(systems: Sequence[Tuple[str, CountTable]], metrics: Sequence[str] = DEFAULT_METRICS,
            *, samples: int = 10000, ar_samples: int = 10000, seed: int = 0,
            confidence: float = 0.95) -> List[Comparison]:
    """Every system after the first against the first, on every metric: the values, the
    difference B - A with its paired bootstrap interval over sentences, and the paired
    bootstrap and approximate randomization p-values. All comparisons share the same
    resamples and shuffles.

    systems (Sequence[Tuple[str, CountTable]]): (name, counts) per system; the first is A.
    metrics (Sequence[str]): metric names (see :func:`metric_names`).
    samples (int): bootstrap samples.
    ar_samples (int): approximate randomization shuffles.
    seed (int): the random seed.
    confidence (float): the interval's coverage.
    RETURNS (List[Comparison]): by metric, then by system B in order.
    RAISES (ValueError): fewer than two systems (E702), tables of other lengths (E703), bad
        settings (E704, E705), unknown metrics (E700, E701), uncounted families (E711).
    """
    if len(systems) < 2:
        raise ValueError(Errors.E702.format(n=len(systems)))
    _check_settings(samples, ar_samples, confidence)
    _check_tables(systems)
    specs = [parse_metric(m) for m in metrics]
    (a_name, a_table), others = systems[0], systems[1:]
    jobs = [(spec, name, a_table.forms(spec), table.forms(spec))
            for spec in specs for name, table in others]
    tests = paired_tests([(fa, fb) for _, _, fa, fb in jobs],
                         [prf_statistic(spec.value) for spec, _, _, _ in jobs],
                         resamples=samples, ar_samples=ar_samples, confidence=confidence,
                         seed=seed)
    return [Comparison(spec.name, a_name, name, t.base, t.other, t.diff.value, t.diff.low,
                       t.diff.high, t.p_bootstrap, t.p_ar)
            for (spec, name, _, _), t in zip(jobs, tests)]

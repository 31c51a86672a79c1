"""FairEval scores (Ortmann 2022): weights (the reference's formula syntax) and the division
of :class:`~.count.FairEvalCounts` into traditional, fair and weighted P/R/F,
overall and per label (zero rule of :mod:`..core`).
"""
import re
from typing import Any, Dict, Mapping, Sequence, Union

from ...errors import Errors
from ..core import prf
from .count import ErrorCounts, FairEvalCounts, count_spans
from .spans import FAIR_TYPES, METHODS, TRADITIONAL_TYPES, FSpan

Weights = Dict[str, Dict[str, float]]

#: The weights of the paper (Ortmann 2022), used by default for "weighted".
PAPER_WEIGHTS_FORMULA = ("LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, "
                         "BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN")
#: The README's alternative: one aggregate weight for all boundary errors.
BE_WEIGHTS_FORMULA = "LE = 0.5 FP + 0.5 FN, BE = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN"
#: Weights of the traditional evaluation.
TRADITIONAL_WEIGHTS: Weights = {"TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1}}
#: Weights of the fair evaluation: LE, BE and LBE each count half FP, half FN.
FAIR_WEIGHTS: Weights = {
    "TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1},
    "LE": {"TP": 0, "FP": 0.5, "FN": 0.5},
    "BE": {"TP": 0, "FP": 0.5, "FN": 0.5},
    "LBE": {"TP": 0, "FP": 0.5, "FN": 0.5},
}



_FORMULA = re.compile(r"^\s*(?P<err>\w+)\s*=(?P<rhs>.*)$", re.S)
_TERM = re.compile(r"^\s*(?P<w>\d+(?:\.\d*)?|\.\d+)\s*\*?\s*(?P<cat>TP|FP|FN)\s*$")


def parse_weights(formula: str) -> Weights:
    """Parse a weight formula as the reference's ``weights`` setting (Ortmann 2022):
    comma-separated ``ERR = a TP + b FP + c FN``; omitted terms weigh 0; TP, FP and FN
    weigh themselves unless given. Every term needs its coefficient (``1 FP``, not ``FP``).

    formula (str): e.g. ``"LE = 0.5 FP + 0.5 FN, BE = 0.5 TP + 0.25 FP + 0.25 FN"``.
    RETURNS (Dict[str, Dict[str, float]]): error type -> {"TP", "FP", "FN"} weights, in
        formula order, then TP, FP, FN.
    RAISES (ValueError): a malformed formula, an unknown error type or a repeated term.
    """
    weights: Weights = {}
    for part in formula.split(","):
        if not part.strip():
            continue
        m = _FORMULA.match(part)
        if m is None:
            raise ValueError(Errors.E252.format(part=part.strip(), reason="expected 'ERR = ...'"))
        err = m.group("err")
        if err not in FAIR_TYPES:
            raise ValueError(Errors.E253.format(err=err, options=", ".join(FAIR_TYPES)))
        if err in weights:
            raise ValueError(Errors.E254.format(what=f"error type {err}", part=part.strip()))
        w: Dict[str, float] = {}
        rhs = m.group("rhs")
        if not rhs.strip():
            raise ValueError(Errors.E252.format(part=part.strip(), reason="no terms"))
        for term in rhs.split("+"):
            tm = _TERM.match(term)
            if tm is None:
                raise ValueError(Errors.E252.format(
                    part=part.strip(), reason=f"bad term {term.strip()!r}; write e.g. '0.5 FP'"))
            cat = tm.group("cat")
            if cat in w:
                raise ValueError(Errors.E254.format(what=f"term {cat}", part=part.strip()))
            w[cat] = float(tm.group("w"))
        weights[err] = {cat: w.get(cat, 0) for cat in TRADITIONAL_TYPES}
    if not weights:
        raise ValueError(Errors.E252.format(part=formula, reason="no formula"))
    for cat in TRADITIONAL_TYPES:
        weights.setdefault(cat, {cat: 1})
    return weights


def format_weights(weights: Mapping[str, Mapping[str, float]]) -> str:
    """Write weights back as a formula (inverse of :func:`parse_weights`).

    weights (Mapping[str, Mapping[str, float]]): the weights.
    RETURNS (str): the formula, e.g. ``"LE = 0.5 FP + 0.5 FN, BE = 0.5 TP + 0.25 FP +
        0.25 FN"``; TP, FP and FN weighing themselves are left out (parsing adds them).
    """
    parts = []
    for err, w in weights.items():
        if err in TRADITIONAL_TYPES and {k: v for k, v in w.items() if v} == {err: 1}:
            continue
        terms = [f"{v:g} {cat}" for cat, v in w.items() if v]
        parts.append(f"{err} = {' + '.join(terms) if terms else '0 TP'}")
    return ", ".join(parts)


def _check_weights(weights: Mapping[str, Mapping[str, float]]) -> None:
    for err, w in weights.items():
        if err not in FAIR_TYPES:
            raise ValueError(Errors.E253.format(err=err, options=", ".join(FAIR_TYPES)))
        if not isinstance(w, Mapping) or any(
                k not in TRADITIONAL_TYPES or isinstance(v, bool) or not isinstance(v, (int, float))
                for k, v in w.items()):
            raise ValueError(Errors.E256.format(err=err, value=w))


#: The paper's weights (default of :func:`faireval`).
PAPER_WEIGHTS: Weights = parse_weights(PAPER_WEIGHTS_FORMULA)
#: The aggregate boundary-error weights (``BE = 0.5 TP + 0.25 FP + 0.25 FN``).
BE_WEIGHTS: Weights = parse_weights(BE_WEIGHTS_FORMULA)


def weighted_prf(counts: Mapping[str, float],
                 weights: Mapping[str, Mapping[str, float]]) -> Dict[str, float]:
    """P, R, F from counts and weights (Ortmann 2022): tp* = Σ_e W[e][TP]·n_e (likewise fp*,
    fn*), P = tp*/(tp*+fp*), R = tp*/(tp*+fn*); 0/0 -> 0.0. Error types without a weight
    are ignored.

    counts (Mapping[str, float]): error type -> count.
    weights (Mapping[str, Mapping[str, float]]): error type -> {"TP", "FP", "FN"} weights.
    RETURNS (Dict[str, float]): {"p", "r", "f"} as fractions.
    """
    tp = sum(w.get("TP", 0) * counts.get(err, 0) for err, w in weights.items())
    fp = sum(w.get("FP", 0) * counts.get(err, 0) for err, w in weights.items())
    fn = sum(w.get("FN", 0) * counts.get(err, 0) for err, w in weights.items())
    return prf(tp, fp, fn)


def _resolve_weights(weights: Union[str, Mapping[str, Mapping[str, float]], None]) -> Weights:
    if weights is None or (not isinstance(weights, str) and not weights):
        return {k: dict(v) for k, v in FAIR_WEIGHTS.items()}
    if isinstance(weights, str):
        return parse_weights(weights)
    _check_weights(weights)
    return {k: dict(v) for k, v in weights.items()}


def scores_from_counts(counts: FairEvalCounts,
                       weights: Union[str, Mapping[str, Mapping[str, float]], None] = PAPER_WEIGHTS,
                       ) -> Dict[str, Any]:
    """Traditional, fair and weighted scores, overall and per label, from counts.

    counts (FairEvalCounts): the counts.
    weights (Union[str, Dict, None]): weights for "weighted" (a dict as returned by
        :func:`parse_weights` or a formula string); None or empty -> the fair weights
        (as the reference does without weights).
    RETURNS (Dict[str, Any]): {"traditional": {TP, FP, FN, p, r, f}, "fair": {TP, FP, FN,
        LE, BE, BES, BEL, BEO, LBE, p, r, f}, "weighted": {same keys as fair},
        "per_label": {method: {label: {...}}}, "confusion": {target: {system: n}}}.
    """
    w = _resolve_weights(weights)
    method_weights = {"traditional": TRADITIONAL_WEIGHTS, "fair": FAIR_WEIGHTS, "weighted": w}

    def block(method: str, ec: ErrorCounts) -> Dict[str, Any]:
        keys = TRADITIONAL_TYPES if method == "traditional" else FAIR_TYPES
        d: Dict[str, Any] = ec.to_dict(keys)
        d.update(weighted_prf(ec.to_dict(), method_weights[method]))
        return d

    result: Dict[str, Any] = {}
    for method in METHODS:
        ec = counts.traditional if method == "traditional" else counts.fair
        result[method] = block(method, ec)
    result["per_label"] = {
        method: {label: block(method, (counts.per_label_traditional if method == "traditional"
                                       else counts.per_label_fair)[label])
                 for label in counts.labels}
        for method in METHODS
    }
    result["confusion"] = counts.confusion_matrix()
    return result


def faireval(target: Sequence[Sequence[FSpan]], system: Sequence[Sequence[FSpan]],
             focus: str = "target",
             weights: Union[str, Mapping[str, Mapping[str, float]], None] = PAPER_WEIGHTS,
             ) -> Dict[str, Any]:
    """FairEval scores of system spans against target spans (Ortmann 2022).

    target (Sequence[Sequence[FSpan]]): target spans per sentence.
    system (Sequence[Sequence[FSpan]]): system spans per sentence, aligned with target.
    focus (str): "target" (default) or "system": whose label LE and LBE count under.
    weights (Union[str, Dict, None]): weights of "weighted" (default: the paper's); None ->
        "weighted" equals "fair".
    RETURNS (Dict[str, Any]): see :func:`scores_from_counts`.
    """
    return scores_from_counts(count_spans(target, system, focus), weights)


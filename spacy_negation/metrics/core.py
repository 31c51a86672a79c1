"""Division with one explicit zero rule, shared by every metric family.

Counting lives in the family modules; these functions only divide. 0/0 (or any zero
denominator) gives 0.0, never an exception.
"""
from typing import Dict


def safe_div(num: float, den: float) -> float:
    """num / den, or 0.0 when den is 0.

    num (float): the numerator.
    den (float): the denominator.
    RETURNS (float): the quotient.
    """
    return num / den if den else 0.0


def f1(p: float, r: float) -> float:
    """The harmonic mean of precision and recall, 0.0 when both are 0.

    p (float): precision.
    r (float): recall.
    RETURNS (float): F1.
    """
    return 2 * p * r / (p + r) if (p + r) else 0.0


def prf(tp: float, fp: float, fn: float) -> Dict[str, float]:
    """Precision, recall and F1 from counts.

    tp (float): true positives.
    fp (float): false positives.
    fn (float): false negatives.
    RETURNS (Dict[str, float]): {"p", "r", "f"} as fractions.
    """
    p = safe_div(tp, tp + fp)
    r = safe_div(tp, tp + fn)
    return {"p": p, "r": r, "f": f1(p, r)}

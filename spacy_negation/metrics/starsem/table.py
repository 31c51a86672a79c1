"""The table of the *SEM 2012 CD-SCO scorer (Morante & Blanco 2012), exact or character
for character as ``eval.cd-sco.pl`` v2.2 prints it.
"""
from typing import Tuple

from .counts import B_ROWS, MAIN_ROWS, Count, StarsemCounts, starsem_scores

_RULE = "-" * 27 + "+------+--------+------+------+------+---------------+------------+---------"
_HEAD = ("                            | gold | system | tp   | fp   | fn   | precision (%) "
         "| recall (%) | F1  (%) ")
_RULE2 = "-" * 28 + "+------+--------+------+------+------+---------------+------------+---------"
_END = "-" * 104


def _perl_pct(num: int, den: int) -> str:
    # sprintf("%.2f", (num / den) * 100), "0.00" for a zero denominator
    return "%.2f" % ((num / den) * 100) if den else "0.00"


def _perl_share(num: int, den: int) -> str:
    # sprintf("%.2f", (num * 100) / den); perl stops on a zero denominator, we print 0.00
    return "%.2f" % ((num * 100) / den) if den else "0.00"


def _perl_f1(p: str, r: str) -> str:
    # F1 from the already rounded, printed P and R
    pv, rv = float(p), float(r)
    return "%.2f" % ((2 * pv * rv) / (pv + rv)) if (pv + rv) else "0.00"


def _exact(value: float) -> str:
    return "%.2f" % (value * 100)


def format_starsem_table(counts: StarsemCounts, compat: bool = False) -> str:
    """The *SEM scorer's table (percentages).

    counts (StarsemCounts): the counts.
    compat (bool): reproduce the perl printout character for character: F1 from the
        rounded P and R (Q-3) and the SCM TP in the tp column of both "Scopes (no cue
        match)" rows (Q-4). Otherwise F1 is exact and the tp column shows the TP used.
    RETURNS (str): the table, ending with a newline.
    """
    lines = [_RULE, _HEAD, _RULE2]
    scores = starsem_scores(counts)
    scm_tp = counts.scopes_cue_match.tp

    def row(label: str, width: int, c: Count, p: str, r: str, f: str, tp: int) -> str:
        return (f"{label} {c.gold:{width}d} | {c.system:6d} | {tp:4d} | {c.fp:4d} | "
                f"{c.fn:4d} | {p:>13s} | {r:>10s} | {f:>7s}")

    def cells(key: str, c: Count, b: bool) -> Tuple[str, str, str, int]:
        tp = scm_tp if (compat and key.startswith("scopes_no_cue_match")) else c.tp
        if compat:
            p = _perl_pct(c.tp, c.system) if b else _perl_pct(c.tp, c.tp + c.fp)
            r = _perl_pct(c.tp, c.tp + c.fn)
            return p, r, _perl_f1(p, r), tp
        s = scores[key]
        return _exact(s["p"]), _exact(s["r"]), _exact(s["f"]), tp

    for key, label, width in MAIN_ROWS:
        c = counts.row(key)
        lines.append(row(label, width, c, *cells(key, c, False)))
    lines.append(_RULE)
    for key, base, label, width in B_ROWS:
        c = counts.row(base)
        lines.append(row(label, width, c, *cells(key, c, True)))
    lines.append(_RULE)
    if compat:
        err = _perl_share(counts.error_sentences, counts.sentences)
        err_neg = _perl_share(counts.error_negation_sentences, counts.negation_sentences)
        correct = "%.2f" % (100 - float(err))
        correct_neg = "%.2f" % (100 - float(err_neg))
    else:
        sent = scores["sentences"]
        correct = "%.2f" % sent["correct_pct"]
        correct_neg = "%.2f" % sent["correct_negation_pct"]
    lines.extend([
        f" # sentences: {counts.sentences}",
        f" # negation sentences: {counts.negation_sentences}",
        f" # negation sentences with errors: {counts.error_negation_sentences}",
        f" % correct sentences: {correct}",
        f" % correct negation sentences: {correct_neg}",
        _END,
    ])
    return "\n".join(lines) + "\n"

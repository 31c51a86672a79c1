"""Negation-instance based scores (NIS; Sineva, Grünewald, Friedrich, Kuhn 2021,
"Negation-Instance Based Evaluation of End-to-End Negation Resolution", CoNLL 2021), with
the semantics of the authors' ``instance_based_eval`` run on a correct Python.

* An instance's cue is its list of (token, cue string); gold and system instances match
  only on identical cue lists (an affix predicted as the whole word does not match), one
  gold instance per system instance, system instances in column order (Q-N4).
* Scopes lose their punctuation tokens; which tokens those are is pluggable: the
  file-based default tests the scope cell's own string for a word character (Q-N3), the
  spaCy scorer uses the reference token's ``is_punct``. No abbreviation normalisation.
* **Cue**: P = |M|/|S|, R = |M|/|G|.
  **NIS_tok**: per matched pair p = k/|s|, r = k/|g| (k = shared (token, string) pairs),
  with the empty-scope rules (both empty: 1/1; gold empty: 0/1; system empty: 1/0);
  P = Σp/|S|, R = Σr/|G|.
  **Token mode**: P = Σk / all system scope tokens, R = Σk / all gold scope tokens.
  **NIS_ex**: e = 1 iff the scopes are identical (two empty scopes are), P = Σe/|S|,
  R = Σe/|G|.
* Any zero denominator gives 0.0 (the reference crashes, Q-N2).

Counting (:func:`count_nis`, :class:`NisCounts`) is separate from division
(:func:`nis_scores`).
"""
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..corpora.starsem import Sentence
from .core import Counts, f1, safe_div
from .records import SentenceRecord, cells

Cells = Tuple[Tuple[int, str], ...]
#: A punctuation rule for scope cells: (sentence, token position, cell) -> is punctuation.
PunctRule = Callable[[Sentence, int, str], bool]

_WORD = re.compile(r"\w")
_search_word = _WORD.search


def cell_is_punct(sentence: Sentence, pos: int, cell: str) -> bool:
    """The reference tool's rule (Q-N3): a scope cell without any (Unicode) word
    character is punctuation.

    sentence (Sentence): the sentence (unused).
    pos (int): the token position (unused).
    cell (str): the scope cell.
    RETURNS (bool): whether the cell is punctuation.
    """
    return _WORD.search(cell) is None


class NisInstance(NamedTuple):
    """A negation instance as NIS sees it.

    cue (Tuple[Tuple[int, str], ...]): (token position, cue string) in token order.
    scope (Tuple[Tuple[int, str], ...]): (token position, scope string) in token order,
        punctuation removed.
    """

    cue: Cells
    scope: Cells


def cue_type(sentence: Sentence, cue: Cells) -> str:
    """The type of a cue: 'affixal' (a cue string differs from its token's form; wins),
    'multiword' (two or more cue tokens) or 'normal'.

    sentence (Sentence): the sentence holding the cue's tokens.
    cue (Tuple[Tuple[int, str], ...]): the (token position, cue string) cells.
    RETURNS (str): the type.
    """
    rows = sentence.rows
    if any(c != rows[p].form for p, c in cue):
        return "affixal"
    return "multiword" if len(cue) > 1 else "normal"


def nis_instances(sentence: Sentence, punct: Optional[PunctRule] = None) -> List[NisInstance]:
    """The NIS instances of a sentence (instances in column order).

    sentence (Sentence): the sentence.
    punct (Optional[PunctRule]): decides which scope cells are punctuation; default
        :func:`cell_is_punct`.
    RETURNS (List[NisInstance]): the instances.
    """
    rule = punct or cell_is_punct
    out = []
    for inst in sentence.instances:
        if not inst.cue:
            continue
        scope = tuple((p, c) for p, c in inst.scope if not rule(sentence, p, c))
        out.append(NisInstance(tuple(inst.cue), scope))
    return out


@dataclass
class NisCounts(Counts):
    """Corpus counts of the NIS family. Add corpora with ``+=``.

    gold (int): gold instances |G|.
    system (int): system instances |S|.
    matched (int): matched pairs |M| (exact cue match).
    sum_p (float): Σ over matched pairs of the instance scope precision (NIS_tok).
    sum_r (float): Σ over matched pairs of the instance scope recall (NIS_tok).
    exact (int): matched pairs with identical scopes (NIS_ex).
    matched_tokens (int): Σ over matched pairs of shared scope tokens (token mode).
    gold_tokens (int): scope tokens of all gold instances.
    system_tokens (int): scope tokens of all system instances.
    """

    gold: int = 0
    system: int = 0
    matched: int = 0
    sum_p: float = 0.0
    sum_r: float = 0.0
    exact: int = 0
    matched_tokens: int = 0
    gold_tokens: int = 0
    system_tokens: int = 0


def match_instances(gold: Sequence[NisInstance], system: Sequence[NisInstance]) -> List[Tuple[int, int]]:
    """Exact cue matching of one sentence: for each system instance (in order), every
    not yet consumed gold instance with an identical cue list is paired and consumed
    (the reference's inner loop does not stop at the first match).

    gold (Sequence[NisInstance]): the gold instances.
    system (Sequence[NisInstance]): the system instances.
    RETURNS (List[Tuple[int, int]]): (gold index, system index) pairs.
    """
    consumed = [False] * len(gold)
    pairs = []
    for z, s in enumerate(system):
        for i, g in enumerate(gold):
            if not consumed[i] and s.cue == g.cue:
                pairs.append((i, z))
                consumed[i] = True
    return pairs


def count_sentence(gold: Sequence[NisInstance], system: Sequence[NisInstance],
                   counts: NisCounts) -> List[Tuple[int, int]]:
    """Add one sentence's NIS counts.

    gold (Sequence[NisInstance]): the gold instances.
    system (Sequence[NisInstance]): the system instances.
    counts (NisCounts): the counts to update in place.
    RETURNS (List[Tuple[int, int]]): the matched (gold index, system index) pairs.
    """
    counts.gold += len(gold)
    counts.system += len(system)
    for g in gold:
        counts.gold_tokens += len(g.scope)
    for s in system:
        counts.system_tokens += len(s.scope)
    pairs = match_instances(gold, system) if gold and system else []
    for i, z in pairs:
        g_scope, s_scope = gold[i].scope, system[z].scope
        counts.matched += 1
        k = len(set(g_scope).intersection(s_scope))
        counts.matched_tokens += k
        if not g_scope and not s_scope:
            p, r = 1.0, 1.0
        elif not g_scope:
            p, r = 0.0, 1.0
        elif not s_scope:
            p, r = 1.0, 0.0
        else:
            p, r = k / len(s_scope), k / len(g_scope)
        counts.sum_p += p
        counts.sum_r += r
        if g_scope == s_scope:
            counts.exact += 1
    return pairs


def record_instances(record: SentenceRecord,
                     punct: Optional[Sequence[bool]] = None) -> List[NisInstance]:
    """The NIS instances of a record (instances in column order).

    record (SentenceRecord): the record.
    punct (Optional[Sequence[bool]]): per-token punctuation; None: the reference tool's
        rule on each scope cell's own string (:func:`cell_is_punct`).
    RETURNS (List[NisInstance]): the instances.
    """
    tokens = record.tokens
    out = []
    for inst in record.instances:
        scope = cells(tokens, inst.scope)
        if punct is None:
            kept = tuple(pc for pc in scope if _search_word(pc[1]) is not None)
        else:
            kept = tuple(pc for pc in scope if not punct[pc[0]])
        out.append(NisInstance(cells(tokens, inst.cue), kept))
    return out


def count_record(gold: SentenceRecord, system: SentenceRecord, counts: NisCounts
                 ) -> Tuple[List[NisInstance], List[NisInstance], List[Tuple[int, int]]]:
    """Add one sentence pair's NIS counts; punctuation by the gold record's ``nis_punct``
    (or, without it, each scope cell's string).

    gold (SentenceRecord): the gold record.
    system (SentenceRecord): the system record on the same tokens.
    counts (NisCounts): the counts to update in place.
    RETURNS (Tuple[List[NisInstance], List[NisInstance], List[Tuple[int, int]]]): the
        gold and system instances and their exact-cue-match pairs.
    """
    gi = record_instances(gold, gold.nis_punct)
    # The same record on both sides (a sentence read once for both files): same instances.
    si = gi if system is gold else record_instances(system, gold.nis_punct)
    return gi, si, count_sentence(gi, si, counts)


def count_nis(gold: Sequence[Sentence], system: Sequence[Sentence],
              punct: Optional[PunctRule] = None) -> NisCounts:
    """Count NIS over a corpus; sentences are zipped in order.

    gold (Sequence[Sentence]): the gold sentences.
    system (Sequence[Sentence]): the system sentences.
    punct (Optional[PunctRule]): the scope punctuation rule; default
        :func:`cell_is_punct` (decided on each file's own cell).
    RETURNS (NisCounts): the counts.
    """
    counts = NisCounts()
    for g, s in zip(gold, system):
        count_sentence(nis_instances(g, punct), nis_instances(s, punct), counts)
    return counts


def _prf(p: float, r: float) -> Dict[str, float]:
    return {"p": p, "r": r, "f": f1(p, r)}


def nis_scores(counts: NisCounts) -> Dict[str, Dict[str, float]]:
    """The NIS scores (fractions; 0.0 for any zero denominator).

    counts (NisCounts): the counts.
    RETURNS (Dict[str, Dict[str, float]]): "counts": {"gold", "system", "matched"};
        "cue", "nis_tok", "nis_ex", "token_mode": {"p", "r", "f"}.
    """
    return {
        "counts": {"gold": counts.gold, "system": counts.system, "matched": counts.matched},
        "cue": _prf(safe_div(counts.matched, counts.system), safe_div(counts.matched, counts.gold)),
        "nis_tok": _prf(safe_div(counts.sum_p, counts.system), safe_div(counts.sum_r, counts.gold)),
        "nis_ex": _prf(safe_div(counts.exact, counts.system), safe_div(counts.exact, counts.gold)),
        "token_mode": _prf(safe_div(counts.matched_tokens, counts.system_tokens),
                           safe_div(counts.matched_tokens, counts.gold_tokens)),
    }


def format_nis_table(scores: Dict[str, Dict[str, float]]) -> str:
    """A readable NIS table (percentages, 2 decimals).

    scores (Dict[str, Dict[str, float]]): the output of :func:`nis_scores`.
    RETURNS (str): the table, ending with a newline.
    """
    c = scores["counts"]
    lines = [
        f"NIS (Sineva et al. 2021): gold instances {c['gold']}, system instances "
        f"{c['system']}, exact cue matches {c['matched']}",
        f"{'':<22}| {'precision (%)':>13} | {'recall (%)':>10} | {'F1 (%)':>7}",
        "-" * 22 + "+" + "-" * 15 + "+" + "-" * 12 + "+" + "-" * 8,
    ]
    for key, label in (("cue", "Cue (exact match)"), ("nis_tok", "Scope NIS_tok"),
                       ("nis_ex", "Scope NIS_ex"), ("token_mode", "Scope token mode")):
        s = scores[key]
        lines.append(f"{label:<22}| {s['p'] * 100:13.2f} | {s['r'] * 100:10.2f} | "
                     f"{s['f'] * 100:7.2f}")
    return "\n".join(lines) + "\n"


def format_nis_cli(scores: Dict[str, Dict[str, float]], token_mode: bool = False) -> str:
    """The reference command line's printout (1 decimal, Q-N5), for comparison.

    scores (Dict[str, Dict[str, float]]): the output of :func:`nis_scores`.
    token_mode (bool): print the token-mode scope scores (its ``-t``) instead of NIS_tok.
    RETURNS (str): the printout.
    """
    cue = scores["cue"]
    scope = scores["token_mode" if token_mode else "nis_tok"]
    res = "Cue precision:    {:.1f}\n".format(cue["p"] * 100)
    res += "Cue recall:       {:.1f}\n".format(cue["r"] * 100)
    res += "Cue F1:           {:.1f}\n".format(cue["f"] * 100)
    res += "\n"
    res += "Scope precision:  {:.1f}\n".format(scope["p"] * 100)
    res += "Scope recall:     {:.1f}\n".format(scope["r"] * 100)
    res += "Scope F1:         {:.1f}\n".format(scope["f"] * 100)
    return res + "\n"

"""The *SEM 2012 CD-SCO metrics (Morante & Blanco 2012), with the semantics of the
shared task's scorer ``eval.cd-sco.pl`` v2.2.

Counting (:func:`count_starsem`, :class:`StarsemCounts`) is separate from division
(:func:`starsem_scores`, via :mod:`.core`) and from the printout
(:func:`format_starsem_table`). The counts of every row equal the perl scorer's on any
well-formed input:

* instances are paired greedily within a sentence: each gold instance (column order) with
  the first still unpaired system instance sharing a cue token (Q-6);
* a paired instance whose cue differs (tokens or strings) is a cue FN, never an FP (Q-5);
* scopes lose the tokens whose GOLD POS is punctuation (Q-7, :func:`is_punct_pos`) and
  scope strings are cut to their leading ``\\w+`` run when it is followed by ``.`` (Q-8);
* "Negated (no cue match)" pairs by event-token overlap; a paired but different event is
  an FN only when its system instance is not the sentence's last instance column (Q-9);
* the B rows divide the same TP by all system instances (resp. scopes, events).

Deliberate differences: every token line is read (the perl scorer drops a file's last
line when it does not end with a blank line, Q-2); F1 is exact unless ``compat`` asks for
the perl printout (F1 from the rounded P and R, Q-3, and the SCM TP in the tp column of the
two "Scopes (no cue match)" rows, Q-4); a zero denominator gives 0.0 where perl would stop
(% correct negation sentences without negation sentences).
"""
import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..errors import Errors, NegationFormatError
from ..starsem import Sentence
from .core import f1, safe_div
from .records import NegationRecord, SentenceRecord, cells
from .starsem_io import punct_pos, sentence_record

Cells = Tuple[Tuple[int, str], ...]

#: The main rows, in printout order: (key, perl label, perl width of the gold column).
MAIN_ROWS: Tuple[Tuple[str, str, int], ...] = (
    ("cues", "Cues:", 28),
    ("scopes_cue_match", "Scopes(cue match):", 15),
    ("scopes_no_cue_match", "Scopes(no cue match):", 12),
    ("scope_tokens", "Scope tokens(no cue match):", 6),
    ("negated", "Negated(no cue match):", 11),
    ("full_negation", "Full negation:", 19),
)
#: The B rows: (key, base row, perl label, width). P_B = TP / system count of the row.
B_ROWS: Tuple[Tuple[str, str, str, int], ...] = (
    ("cues_b", "cues", "Cues B:", 26),
    ("scopes_cue_match_b", "scopes_cue_match", "Scopes B (cue match):", 12),
    ("scopes_no_cue_match_b", "scopes_no_cue_match", "Scopes B (no cue match):", 9),
    ("negated_b", "negated", "Negated B (no cue match):", 8),
    ("full_negation_b", "full_negation", "Full negation B:", 17),
)
ROW_KEYS: Tuple[str, ...] = tuple(k for k, _, _ in MAIN_ROWS)

# eval.cd-sco.pl reads bytes, so its \w is ASCII.
_ABBREVIATION = re.compile(r"^([A-Za-z0-9_]+)\.")


def normalize_scope_cell(cell: str) -> str:
    """The scorer's abbreviation rule for scope strings (Q-8): ``Mr.`` -> ``Mr``, also
    ``U.S.`` -> ``U`` and ``3.5`` -> ``3``.

    cell (str): a scope cell.
    RETURNS (str): the normalised string.
    """
    if "." not in cell:
        return cell
    m = _ABBREVIATION.match(cell)
    return m.group(1) if m else cell


def punct_mask(sentence: Sentence) -> List[bool]:
    """Which tokens of a (gold) sentence are punctuation by the *SEM POS rule (Q-7).

    sentence (Sentence): the sentence whose POS column decides.
    RETURNS (List[bool]): one flag per token.
    """
    return [punct_pos(row.pos) for row in sentence.rows]


@dataclass
class Count:
    """The counts of one row.

    gold (int): the gold count shown in the row (instances, scopes, tokens or events).
    system (int): the system count shown in the row; the B rows divide by it.
    tp (int): true positives (the TP used for P and R).
    fp (int): false positives.
    fn (int): false negatives.
    """

    gold: int = 0
    system: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: "Count") -> None:
        """Add another row's counts in place.

        other (Count): the counts to add.
        """
        self.gold += other.gold
        self.system += other.system
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def as_dict(self) -> Dict[str, int]:
        return {"gold": self.gold, "system": self.system, "tp": self.tp, "fp": self.fp,
                "fn": self.fn}


@dataclass
class StarsemCounts:
    """Corpus counts of the *SEM scorer: one :class:`Count` per main row plus the
    sentence statistics. Add corpora with ``+=``.

    sentences (int): sentences scored.
    negation_sentences (int): sentences whose gold has at least one instance.
    error_sentences (int): sentences with any error (as the scorer counts them).
    error_negation_sentences (int): negation sentences with any error.
    """

    cues: Count = field(default_factory=Count)
    scopes_cue_match: Count = field(default_factory=Count)
    scopes_no_cue_match: Count = field(default_factory=Count)
    scope_tokens: Count = field(default_factory=Count)
    negated: Count = field(default_factory=Count)
    full_negation: Count = field(default_factory=Count)
    sentences: int = 0
    negation_sentences: int = 0
    error_sentences: int = 0
    error_negation_sentences: int = 0

    def row(self, key: str) -> Count:
        """The counts of a main row (a key of :data:`ROW_KEYS`)."""
        if key not in ROW_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __iadd__(self, other: "StarsemCounts") -> "StarsemCounts":
        for key in ROW_KEYS:
            self.row(key).add(other.row(key))
        self.sentences += other.sentences
        self.negation_sentences += other.negation_sentences
        self.error_sentences += other.error_sentences
        self.error_negation_sentences += other.error_negation_sentences
        return self


class _Prepared:
    """One instance as the scorer sees it: cells as tuples, punctuation-free scope."""

    __slots__ = ("cue", "cue_set", "scope", "scope_map", "event", "event_set")

    def __init__(self, inst: NegationRecord, tokens: Sequence[str], punct: Sequence[bool]) -> None:
        self.cue: Cells = cells(tokens, inst.cue)
        self.cue_set: FrozenSet[int] = frozenset(p for p, _, _ in inst.cue)
        self.scope: Cells = tuple(
            (p, normalize_scope_cell(c)) for p, c in cells(tokens, inst.scope) if not punct[p]
        )
        self.scope_map: Dict[int, str] = dict(self.scope)
        self.event: Cells = cells(tokens, inst.event)
        self.event_set: FrozenSet[int] = frozenset(p for p, _, _ in inst.event)


def greedy_pairs(gold: Sequence[FrozenSet[int]], system: Sequence[FrozenSet[int]]) -> List[int]:
    """For each gold item (in order) the first unpaired system item sharing a token
    index, or -1. Empty token sets never pair."""
    used = [False] * len(system)
    out: List[int] = []
    for g in gold:
        found = -1
        if g:
            for z, s in enumerate(system):
                if not used[z] and not g.isdisjoint(s):
                    used[z] = True
                    found = z
                    break
        out.append(found)
    return out


def count_sentence(gold: Sentence, system: Sentence, counts: StarsemCounts,
                   punct: Optional[Sequence[bool]] = None) -> None:
    """Add one sentence pair's counts (:class:`~spacy_negation.starsem.Sentence` objects;
    see :func:`count_record`). The sentences must be token-aligned.

    gold (Sentence): the gold sentence (its POS column decides punctuation).
    system (Sentence): the system sentence.
    counts (StarsemCounts): the counts to update in place.
    punct (Optional[Sequence[bool]]): per-token punctuation flags; default
        :func:`punct_mask` of the gold sentence.
    """
    count_record(sentence_record(gold, punct), sentence_record(system, ()), counts)


def count_cue_record(gold: SentenceRecord, system: SentenceRecord, counts: Count) -> None:
    """Add one sentence pair's "Cues" row only (for a cue-only scorer): the same pairing
    and counts as :func:`count_record` gives that row.

    gold (SentenceRecord): the gold record.
    system (SentenceRecord): the system record on the same tokens.
    counts (Count): the cue row to update in place.
    """
    G = [cells(gold.tokens, i.cue) for i in gold.instances]
    S = [cells(system.tokens, i.cue) for i in system.instances]
    counts.gold += len(G)
    counts.system += len(S)
    pairs = greedy_pairs([frozenset(p for p, _ in x) for x in G],
                         [frozenset(p for p, _ in y) for y in S])
    for x, z in zip(G, pairs):
        if z >= 0 and x == S[z]:
            counts.tp += 1
        else:
            counts.fn += 1
    counts.fp += len(S) - sum(1 for z in pairs if z >= 0)


def count_record(gold: SentenceRecord, system: SentenceRecord, counts: StarsemCounts) -> None:
    """Add one sentence pair's counts. The records must be on the same tokens; the gold
    record's punctuation mask is used for both.

    gold (SentenceRecord): the gold record.
    system (SentenceRecord): the system record.
    counts (StarsemCounts): the counts to update in place.
    """
    punct = gold.punct
    G = [_Prepared(i, gold.tokens, punct) for i in gold.instances]
    S = [_Prepared(i, system.tokens, punct) for i in system.instances]
    cues, scm, scnm = counts.cues, counts.scopes_cue_match, counts.scopes_no_cue_match
    st, neg, full = counts.scope_tokens, counts.negated, counts.full_negation
    counts.sentences += 1
    for x in G:
        cues.gold += 1
        full.gold += 1
        if x.scope:
            scm.gold += 1
            scnm.gold += 1
            st.gold += len(x.scope)
        if x.event:
            neg.gold += 1
    for y in S:
        cues.system += 1
        full.system += 1
        if y.scope:
            scm.system += 1
            scnm.system += 1
            st.system += len(y.scope)
        if y.event:
            neg.system += 1
    if not G and not S:
        return
    error = False
    pairs = greedy_pairs([x.cue_set for x in G], [y.cue_set for y in S])
    for x, z in zip(G, pairs):
        if z < 0:
            error = True
            cues.fn += 1
            if x.scope:
                scm.fn += 1
                scnm.fn += 1
                st.fn += len(x.scope)
            full.fn += 1
            continue
        y = S[z]
        cue_ok = x.cue == y.cue
        scope_ok = x.scope == y.scope
        # Scope tokens: by index and (normalised) string, whatever the cue.
        for p, c in x.scope:
            if y.scope_map.get(p) == c:
                st.tp += 1
            else:
                st.fn += 1
        for p, c in y.scope:
            if x.scope_map.get(p) != c:
                st.fp += 1
        if cue_ok and scope_ok and x.event == y.event:
            full.tp += 1
        else:
            full.fn += 1
            error = True
        # The scope outcome of a pair, shared by SCM (exact cue) and SCNM (any pair).
        if not x.scope:
            outcome = "fp" if y.scope else ""
        else:
            outcome = "tp" if scope_ok else "fn"
        if cue_ok:
            cues.tp += 1
            if outcome:
                setattr(scm, outcome, getattr(scm, outcome) + 1)
        else:
            cues.fn += 1
            if x.scope:
                scm.fn += 1
        if outcome:
            setattr(scnm, outcome, getattr(scnm, outcome) + 1)
    paired = set(pairs)
    for z, y in enumerate(S):
        if z in paired:
            continue
        error = True
        cues.fp += 1
        if y.scope:
            scm.fp += 1
            scnm.fp += 1
            st.fp += len(y.scope)
        full.fp += 1
    # Negated (no cue match): its own pairing by event tokens.
    epairs = greedy_pairs([x.event_set for x in G], [y.event_set for y in S])
    last = len(S) - 1
    for x, z in zip(G, epairs):
        if not x.event:
            continue
        if z < 0:
            neg.fn += 1
        elif x.event == S[z].event:
            neg.tp += 1
        elif z != last:
            neg.fn += 1
    epaired = set(epairs)
    for z, y in enumerate(S):
        if y.event and z not in epaired:
            neg.fp += 1
    if error:
        counts.error_sentences += 1
        if G:
            counts.error_negation_sentences += 1
    if G:
        counts.negation_sentences += 1


def check_alignment(gold: Sequence[Sentence], system: Sequence[Sentence], *,
                    gold_path: str = "gold", system_path: str = "system") -> None:
    """Check that gold and system are token-aligned: the same sentences with the same
    tokens, columns 0-3 (document id, sentence number, token number, form) equal.

    gold (Sequence[Sentence]): the gold sentences (as read from a file).
    system (Sequence[Sentence]): the system sentences.
    gold_path (str): the gold file's name for messages.
    system_path (str): the system file's name for messages.
    RAISES (NegationFormatError): at the first mismatching line, naming both files' lines.
    """
    for k in range(max(len(gold), len(system))):
        g = gold[k] if k < len(gold) else None
        s = system[k] if k < len(system) else None
        if g is not None and s is not None and len(g.rows) == len(s.rows) and all(
                a.form == b.form and a.tok_no == b.tok_no and a.sent_no == b.sent_no
                and a.doc_id == b.doc_id for a, b in zip(g.rows, s.rows)):
            continue
        n = max(len(g.rows) if g else 0, len(s.rows) if s else 0)
        for j in range(n):
            gr = g.rows[j] if g is not None and j < len(g.rows) else None
            sr = s.rows[j] if s is not None and j < len(s.rows) else None
            gk = (gr.doc_id, gr.sent_no, str(gr.tok_no), gr.form) if gr else None
            sk = (sr.doc_id, sr.sent_no, str(sr.tok_no), sr.form) if sr else None
            if gk == sk:
                continue
            gline, gdesc = _describe(g, j, gk, gold, k)
            sline, sdesc = _describe(s, j, sk, system, k)
            raise NegationFormatError(
                Errors.E200.format(gold_path=gold_path, gold_line=gline, system_path=system_path,
                                   system_line=sline, gold=gdesc, system=sdesc),
                gold_path, gline if isinstance(gline, int) else None,
            )


def _describe(sent: Optional[Sentence], j: int, key: Optional[Tuple[str, ...]],
              sentences: Sequence[Sentence], k: int) -> Tuple[object, str]:
    if key is not None and sent is not None:
        return sent.line + j if sent.line else "?", "token " + "\t".join(key)
    if sent is not None:
        return (sent.line + len(sent.rows) if sent.line else "?"), "the end of a sentence"
    last = sentences[-1] if sentences else None
    line = last.line + len(last.rows) if last is not None and last.line else "end"
    return line, "the end of the file"


def count_starsem(gold: Sequence[Sentence], system: Sequence[Sentence], *,
                  gold_path: str = "gold", system_path: str = "system",
                  check: bool = True) -> StarsemCounts:
    """Count the *SEM rows over a corpus.

    gold (Sequence[Sentence]): the gold sentences.
    system (Sequence[Sentence]): the system sentences, token-aligned with gold.
    gold_path (str): the gold file's name for error messages.
    system_path (str): the system file's name for error messages.
    check (bool): check the alignment first (:func:`check_alignment`).
    RETURNS (StarsemCounts): the counts.
    RAISES (NegationFormatError): the files are not aligned.
    """
    if check:
        check_alignment(gold, system, gold_path=gold_path, system_path=system_path)
    counts = StarsemCounts()
    for g, s in zip(gold, system):
        count_record(sentence_record(g), sentence_record(s, ()), counts)
    return counts


def starsem_scores(counts: StarsemCounts) -> Dict[str, Dict[str, float]]:
    """P, R and exact F1 (fractions) of every row, B rows included, plus the sentence
    statistics.

    counts (StarsemCounts): the counts.
    RETURNS (Dict[str, Dict[str, float]]): per row key {"gold", "system", "tp", "fp",
        "fn", "p", "r", "f"} (tp = the TP used for P/R); "sentences": {"total",
        "negation", "negation_with_errors", "correct_pct", "correct_negation_pct"}
        (percentages, unrounded).
    """
    out: Dict[str, Dict[str, float]] = {}
    b_of = {base: key for key, base, _, _ in B_ROWS}
    for key in ROW_KEYS:
        c = counts.row(key)
        r = safe_div(c.tp, c.tp + c.fn)
        p = safe_div(c.tp, c.tp + c.fp)
        out[key] = {**c.as_dict(), "p": p, "r": r, "f": f1(p, r)}
        if key in b_of:
            p_b = safe_div(c.tp, c.system)
            out[b_of[key]] = {**c.as_dict(), "p": p_b, "r": r, "f": f1(p_b, r)}
    out["sentences"] = {
        "total": counts.sentences,
        "negation": counts.negation_sentences,
        "negation_with_errors": counts.error_negation_sentences,
        "correct_pct": 100.0 - safe_div(counts.error_sentences * 100, counts.sentences),
        "correct_negation_pct": 100.0 - safe_div(counts.error_negation_sentences * 100,
                                                counts.negation_sentences),
    }
    return out


# --- printout -------------------------------------------------------------------------------
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

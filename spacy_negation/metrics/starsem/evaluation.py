"""The *SEM 2012 CD-SCO metrics (Morante & Blanco 2012), with the semantics of the
shared task's scorer ``eval.cd-sco.pl`` v2.2.

This module counts (:func:`count_record`, :func:`count_starsem`); the count records and
their division are in :mod:`.counts` (:class:`StarsemCounts`,
:func:`starsem_scores`), the printout in :mod:`.table` (:func:`format_starsem_table`);
both are re-exported here. The counts of every row equal the perl scorer's on any
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
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from ...corpora.starsem import Sentence
from ...errors import Errors, NegationFormatError
from ..records import NegationRecord, SentenceRecord, cells
from .counts import B_ROWS, MAIN_ROWS, ROW_KEYS, Count, StarsemCounts, starsem_scores
from .io import punct_pos, sentence_record
from .table import format_starsem_table

__all__ = ["B_ROWS", "MAIN_ROWS", "ROW_KEYS", "Count", "StarsemCounts", "starsem_scores",
           "format_starsem_table", "normalize_scope_cell", "punct_mask", "greedy_pairs",
           "count_sentence", "count_cue_record", "count_record", "check_alignment",
           "count_starsem"]

Cells = Tuple[Tuple[int, str], ...]

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
    """Add one sentence pair's counts (:class:`~spacy_negation.corpora.starsem.Sentence` objects;
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


def _count_unpaired(x: _Prepared, counts: StarsemCounts, outcome: str) -> None:
    """An instance without a cue pair: a miss (``outcome`` "fn", gold) or a false alarm
    ("fp", system) in the cue and full-negation rows and, with a scope, both scope rows;
    its scope tokens likewise.

    x (_Prepared): the instance.
    counts (StarsemCounts): the counts to update in place.
    outcome (str): "fn" or "fp".
    """
    rows = [counts.cues, counts.full_negation]
    if x.scope:
        rows += [counts.scopes_cue_match, counts.scopes_no_cue_match]
    for row in rows:
        setattr(row, outcome, getattr(row, outcome) + 1)
    st = counts.scope_tokens
    setattr(st, outcome, getattr(st, outcome) + len(x.scope))


def count_record(gold: SentenceRecord, system: SentenceRecord, counts: StarsemCounts) -> None:
    """Add one sentence pair's counts. The records must be on the same tokens; the gold
    record's punctuation mask is used for both.

    gold (SentenceRecord): the gold record.
    system (SentenceRecord): the system record.
    counts (StarsemCounts): the counts to update in place.
    """
    punct = gold.punct
    G = [_Prepared(i, gold.tokens, punct) for i in gold.instances]
    # The same record on both sides (a sentence read once for both files): same instances.
    S = G if system is gold else [_Prepared(i, system.tokens, punct) for i in system.instances]
    cues, scm, scnm = counts.cues, counts.scopes_cue_match, counts.scopes_no_cue_match
    st, neg, full = counts.scope_tokens, counts.negated, counts.full_negation
    counts.sentences += 1
    if not G and not S:
        return
    for side, xs in (("gold", G), ("system", S)):
        n_scope = n_tokens = n_event = 0
        for x in xs:
            if x.scope:
                n_scope += 1
                n_tokens += len(x.scope)
            if x.event:
                n_event += 1
        for row, n in ((cues, len(xs)), (full, len(xs)), (scm, n_scope), (scnm, n_scope),
                       (st, n_tokens), (neg, n_event)):
            setattr(row, side, getattr(row, side) + n)
    error = False
    pairs = greedy_pairs([x.cue_set for x in G], [y.cue_set for y in S])
    for x, z in zip(G, pairs):
        if z < 0:
            error = True
            _count_unpaired(x, counts, "fn")
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
        _count_unpaired(y, counts, "fp")
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

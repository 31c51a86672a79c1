"""spaCy scorers for negation resolution, registered in ``@scorers``.

``spacy_negation.negation_scorer.v1`` scores predicted negations against the reference
docs with all three metric families of :mod:`spacy_negation.metrics`; it is the default
scorer of the trainable negation components. ``spacy_negation.faireval_spans_scorer.v1``
applies FairEval to any span source (``doc.ents`` or ``doc.spans[key]``).
"""
import warnings
from bisect import bisect_right
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from .errors import Warnings
from .negation import ROLES, get_negations
from .starsem import Instance, Sentence, TokenRow, is_punct_pos
from .metrics import faireval
from .metrics.core import f1, safe_div
from .metrics.nis import NisCounts, NisInstance, cue_type, nis_scores
from .metrics.nis import count_sentence as nis_count_sentence
from .metrics.starsem_eval import StarsemCounts, starsem_scores
from .metrics.starsem_eval import count_sentence as starsem_count_sentence

CUE_TYPES = ("normal", "affixal", "multiword")
ScoreFunc = Callable[..., Dict[str, Any]]


@registry.scorers("spacy_negation.negation_scorer.v1")
def make_negation_scorer() -> ScoreFunc:
    """The negation scorer: *SEM 2012 (Morante & Blanco 2012, "*SEM 2012 Shared Task:
    Resolving the Scope and Focus of Negation", *SEM 2012; scorer eval.cd-sco.pl v2.2),
    NIS (Sineva, Grünewald, Friedrich & Kuhn 2021, "Negation-Instance Based Evaluation
    of End-to-End Negation Resolution", CoNLL 2021) and FairEval on negation spans
    (Ortmann 2022, "Fine-Grained Error Analysis and Fair Evaluation of Labeled Spans",
    LREC 2022). See :func:`score_negations`.

    RETURNS (Callable[..., Dict[str, Any]]): ``score_negations(examples, **kwargs)``.
    """
    return score_negations


@registry.scorers("spacy_negation.faireval_spans_scorer.v1")
def make_faireval_spans_scorer(spans_key: Optional[str] = None) -> ScoreFunc:
    """FairEval (Ortmann 2022, "Fine-Grained Error Analysis and Fair Evaluation of
    Labeled Spans", LREC 2022) for labelled spans of any spaCy span source: traditional,
    fair and weighted (paper weights) precision, recall and F1, overall and per label.

    spans_key (Optional[str]): the ``doc.spans`` key to score; None scores ``doc.ents``.
    RETURNS (Callable[..., Dict[str, Any]]): ``score(examples, **kwargs)``.
    """

    def score_faireval_spans(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """Score the spans of the examples' predicted docs against the reference docs.

        examples (Iterable[Example]): the examples.
        kwargs (Any): ignored (spaCy passes scorer settings).
        RETURNS (Dict[str, Any]): the FairEval scores (see the FairEval module).
        """
        return faireval.score_span_examples(list(examples), spans_key)

    return score_faireval_spans


# --- docs to *SEM sentences on the reference tokens ---------------------------------------
class _RefLayout:
    """The reference doc's sentences as *SEM rows, and where each token sits."""

    __slots__ = ("doc", "text", "texts", "sentences", "position", "starts", "starsem_punct",
                 "nis_punct")

    def __init__(self, doc: Doc, doc_index: int) -> None:
        self.doc = doc
        split = doc.has_annotation("SENT_START")
        self.sentences: List[Sentence] = []
        self.position: Dict[int, Tuple[int, int]] = {}
        self.starsem_punct: List[List[bool]] = []
        self.nis_punct: List[List[bool]] = []
        self.starts: List[int] = []
        self.texts: List[str] = []
        doc_id = f"doc{doc_index}"
        pieces: List[str] = []
        rows: List[TokenRow] = []
        sp: List[bool] = []
        np_: List[bool] = []
        n_sent = 0
        for token in doc:
            text = token.text
            self.starts.append(token.idx)
            self.texts.append(text)
            pieces.append(token.text_with_ws)
            if split and token.i and token.is_sent_start:
                n_sent += 1
                if rows:
                    self._flush(rows, sp, np_)
                    rows, sp, np_ = [], [], []
            if token.is_space:
                continue
            self.position[token.i] = (len(self.sentences), len(rows))
            is_punct = token.is_punct
            tag = token.tag_
            # *SEM rows: the gold-POS rule on the reference tag; a token without a tag gets
            # the POS "." or "_" by is_punct, so that the rule gives is_punct's answer.
            pos = tag if tag else ("." if is_punct else "_")
            rows.append(TokenRow(doc_id, str(n_sent), len(rows), text, "_", pos, "_"))
            sp.append(_starsem_punct(pos))
            np_.append(is_punct)
        if rows:
            self._flush(rows, sp, np_)
        self.text = "".join(pieces)

    def _flush(self, rows: List[TokenRow], sp: List[bool], np_: List[bool]) -> None:
        self.sentences.append(Sentence(rows=rows, instances=[]))
        self.starsem_punct.append(sp)
        self.nis_punct.append(np_)

    def empty_copies(self) -> List[Sentence]:
        return [Sentence(rows=s.rows, instances=[]) for s in self.sentences]

    def tokens_in(self, a: int, b: int) -> Iterable[Tuple[int, int, int]]:
        """Reference tokens overlapping the character range [a, b): (i, start, end)
        with the covered range inside the token."""
        starts, texts = self.starts, self.texts
        j = max(bisect_right(starts, a) - 1, 0)
        n = len(starts)
        while j < n:
            idx = starts[j]
            if idx >= b:
                break
            s = max(a, idx) - idx
            e = min(b, idx + len(texts[j])) - idx
            if e > s:
                yield j, s, e
            j += 1


_PUNCT_CACHE: Dict[str, bool] = {}


def _starsem_punct(pos: str) -> bool:
    flag = _PUNCT_CACHE.get(pos)
    if flag is None:
        flag = _PUNCT_CACHE[pos] = is_punct_pos(pos)
    return flag


Ranges = Dict[int, List[Tuple[int, int]]]  # reference token -> covered (start, end) ranges


def _cell(text: str, ranges: List[Tuple[int, int]]) -> str:
    """The characters of a token covered by the ranges, in order, each once."""
    merged: List[Tuple[int, int]] = []
    for s, e in sorted(ranges):
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return "".join(text[s:e] for s, e in merged)


def _add_instance(layout: _RefLayout, sentences: List[Sentence], roles: Dict[str, Ranges]) -> None:
    """Put an instance into the sentence of its first cue token; parts in other
    sentences are left out. An instance without cue is left out."""
    if not roles["cue"]:
        return
    s, _ = layout.position[min(roles["cue"])]
    texts = layout.texts
    inst = Instance()
    for role in ROLES:
        out = getattr(inst, role)
        for i in sorted(roles[role]):
            ts, pos = layout.position[i]
            if ts == s:
                out.append((pos, _cell(texts[i], roles[role][i])))
    sentences[s].instances.append(inst)


def _gold_sentences(layout: _RefLayout) -> List[Sentence]:
    sentences = layout.empty_copies()
    for neg in sorted(get_negations(layout.doc), key=lambda n: n.id):
        roles: Dict[str, Ranges] = {}
        for role in ROLES:
            roles[role] = {p.i: [(p.start, p.end)] for p in neg.parts(role)
                           if p.i in layout.position}
        _add_instance(layout, sentences, roles)
    return sentences


def _char_map(pred: str, ref: str) -> Optional[List[int]]:
    """Map predicted character offsets to reference offsets (None when the texts are
    equal). Texts differing only in whitespace map character by character; otherwise
    only identical characters at identical offsets map. -1: not mappable."""
    if pred == ref:
        return None
    a = [i for i, ch in enumerate(pred) if not ch.isspace()]
    b = [i for i, ch in enumerate(ref) if not ch.isspace()]
    out = [-1] * len(pred)
    if len(a) == len(b) and all(pred[x] == ref[y] for x, y in zip(a, b)):
        for x, y in zip(a, b):
            out[x] = y
    else:
        for i, (x, y) in enumerate(zip(pred, ref)):
            if x == y and not x.isspace():
                out[i] = i
    return out


def _runs(positions: Sequence[int]) -> List[Tuple[int, int]]:
    runs: List[Tuple[int, int]] = []
    for x in positions:
        if runs and runs[-1][1] == x:
            runs[-1] = (runs[-1][0], x + 1)
        else:
            runs.append((x, x + 1))
    return runs


def _system_sentences(layout: _RefLayout, pred: Doc) -> Tuple[List[Sentence], int]:
    """Project the predicted negations onto the reference tokens by character offsets.
    Returns the sentences and the number of parts not fully projectable (texts differ)."""
    sentences = layout.empty_copies()
    negs = get_negations(pred)
    if not negs:
        return sentences, 0
    text = pred.text
    cmap = _char_map(text, layout.text)
    dropped = 0
    for neg in sorted(negs, key=lambda n: n.id):
        roles: Dict[str, Ranges] = {}
        for role in ROLES:
            per: Ranges = {}
            for p in neg.parts(role):
                a, b = p.offsets(pred)
                if cmap is None:
                    ranges = [(a, b)]
                else:
                    mapped = [cmap[k] for k in range(a, b) if not text[k].isspace()]
                    if any(m < 0 for m in mapped):
                        dropped += 1
                    ranges = _runs([m for m in mapped if m >= 0])
                for ra, rb in ranges:
                    for i, s, e in layout.tokens_in(ra, rb):
                        if i in layout.position:
                            per.setdefault(i, []).append((s, e))
            roles[role] = per
        _add_instance(layout, sentences, roles)
    return sentences, dropped


def example_sentences(example: Example, index: int = 0) -> Tuple[List[Sentence], List[Sentence], "_RefLayout", int]:
    """The gold and system *SEM sentences of an example, both on the reference tokens.

    Predicted negations are projected onto the reference tokens by character offsets: a
    reference token is covered by a part exactly where the part's characters are (an
    affix part of a predicted token becomes the matching substring of the reference
    token; a predicted token spanning two reference tokens covers both), never by token
    index. Parts outside the sentence of the instance's first cue token are dropped.

    example (Example): the example.
    index (int): the example's number (for document ids).
    RETURNS (Tuple[List[Sentence], List[Sentence], _RefLayout, int]): gold sentences,
        system sentences, the reference layout, and the number of predicted parts that
        could not be projected (texts differing beyond whitespace).
    """
    layout = _RefLayout(example.reference, index)
    gold = _gold_sentences(layout)
    system, dropped = _system_sentences(layout, example.predicted)
    return gold, system, layout, dropped


def score_negations(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """Score predicted negations (``doc.spans["negations"]``) against the reference docs
    with the *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et al. 2021, CoNLL) and
    FairEval (Ortmann 2022, LREC) metrics, all on the reference tokens (metrics spec
    Part A.6).

    Punctuation: the *SEM rows and the FairEval negation spans apply the *SEM gold-POS
    rule to the reference ``token.tag_`` (tokens without a tag: ``token.is_punct``), as the
    official scorer does with the gold POS column; NIS uses the reference
    ``token.is_punct`` (Part A.3).

    examples (Iterable[Example]): the examples.
    kwargs (Any): ignored (spaCy passes scorer settings).
    RETURNS (Dict[str, Any]): fractions under ``neg_*`` keys: *SEM ``neg_cue_p/r/f``,
        ``neg_cue_b_*``, ``neg_scm_*``, ``neg_scm_b_*``, ``neg_scnm_*`` (scopes, no cue
        match), ``neg_st_*`` (scope tokens), ``neg_full_*``, ``neg_full_b_f``; NIS
        ``neg_nis_cue_*``, ``neg_nis_tok_*``, ``neg_nis_ex_*``, ``neg_nis_tm_*`` (token
        mode); FairEval ``neg_fair_trad_f``, ``neg_fair_*``, ``neg_fair_weighted_*``;
        ``neg_cue_per_type`` ({type: {"p", "r", "f"}}, exact cue match, gold type for
        recall, system type for precision) and ``neg_faireval_per_label``
        ({label: {"trad_p", "trad_r", "trad_f", "fair_p", ..., "weighted_f"}}, labels
        CUE, AFFIX, MWCUE, SCOPE as present).
    """
    counter = NegationCounter()
    dropped = 0
    for n, eg in enumerate(examples):
        gold, system, layout, d = example_sentences(eg, n)
        dropped += d
        for g, s, sp, np_ in zip(gold, system, layout.starsem_punct, layout.nis_punct):
            counter.add(g, s, sp, np_)
    if dropped:
        warnings.warn(Warnings.W002.format(n=dropped))
    return counter.scores()


class NegationCounter:
    """Corpus counts of the three metric families on sentences laid out on the reference
    tokens (counting only; :meth:`scores` divides). Shared by :func:`score_negations` and
    the project's report, which re-scores system files the same way."""

    def __init__(self) -> None:
        self.starsem = StarsemCounts()
        self.nis = NisCounts()
        self.per_type = {t: [0, 0, 0] for t in CUE_TYPES}  # gold, system, matched
        self.targets: List[Any] = []
        self.systems: List[Any] = []

    def add(self, gold: Sentence, system: Sentence, starsem_punct: Sequence[bool],
            nis_punct: Sequence[bool]) -> Tuple[List[NisInstance], List[NisInstance], List[Tuple[int, int]]]:
        """Count one sentence pair.

        gold (Sentence): the reference sentence.
        system (Sentence): the system sentence on the same tokens.
        starsem_punct (Sequence[bool]): per token, punctuation for *SEM and FairEval.
        nis_punct (Sequence[bool]): per token, punctuation for NIS.
        RETURNS (Tuple[List[NisInstance], List[NisInstance], List[Tuple[int, int]]]): the
            gold and system NIS instances and their exact-cue-match pairs.
        """
        starsem_count_sentence(gold, system, self.starsem, punct=starsem_punct)
        gi = [_nis_instance(inst, nis_punct) for inst in gold.instances]
        si = [_nis_instance(inst, nis_punct) for inst in system.instances]
        pairs = nis_count_sentence(gi, si, self.nis)
        for x in gi:
            self.per_type[cue_type(gold, x.cue)][0] += 1
        for y in si:
            self.per_type[cue_type(system, y.cue)][1] += 1
        for i, _ in pairs:
            self.per_type[cue_type(gold, gi[i].cue)][2] += 1
        self.targets.append(faireval.negation_spans(gold))
        self.systems.append(faireval.negation_spans(system))
        return gi, si, pairs

    def faireval(self) -> Dict[str, Any]:
        """FairEval on the negation spans counted so far (see :func:`faireval.faireval`)."""
        return faireval.faireval(self.targets, self.systems)

    def scores(self, fe: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """The flat ``neg_*`` scores (see :func:`score_negations`).

        fe (Optional[Dict[str, Any]]): the FairEval result, if already computed.
        RETURNS (Dict[str, Any]): the scores.
        """
        out: Dict[str, Any] = {}
        st = starsem_scores(self.starsem)
        for prefix, key in (("cue", "cues"), ("cue_b", "cues_b"), ("scm", "scopes_cue_match"),
                            ("scm_b", "scopes_cue_match_b"), ("scnm", "scopes_no_cue_match"),
                            ("st", "scope_tokens"), ("full", "full_negation")):
            for m in "prf":
                out[f"neg_{prefix}_{m}"] = st[key][m]
        out["neg_full_b_f"] = st["full_negation_b"]["f"]
        nis = nis_scores(self.nis)
        for prefix, key in (("nis_cue", "cue"), ("nis_tok", "nis_tok"), ("nis_ex", "nis_ex"),
                            ("nis_tm", "token_mode")):
            for m in "prf":
                out[f"neg_{prefix}_{m}"] = nis[key][m]
        fe = fe if fe is not None else self.faireval()
        out["neg_fair_trad_f"] = fe["traditional"]["f"]
        for m in "prf":
            out[f"neg_fair_{m}"] = fe["fair"][m]
        for m in "prf":
            out[f"neg_fair_weighted_{m}"] = fe["weighted"][m]
        cue_types: Dict[str, Dict[str, float]] = {}
        for t, (ng, ns, nm) in self.per_type.items():
            p, r = safe_div(nm, ns), safe_div(nm, ng)
            cue_types[t] = {"p": p, "r": r, "f": f1(p, r)}
        out["neg_cue_per_type"] = cue_types
        per_label: Dict[str, Dict[str, float]] = {}
        for method, short in (("traditional", "trad"), ("fair", "fair"), ("weighted", "weighted")):
            for label, v in fe["per_label"][method].items():
                for m in "prf":
                    per_label.setdefault(label, {})[f"{short}_{m}"] = v[m]
        out["neg_faireval_per_label"] = per_label
        return out


def _nis_instance(inst: Instance, punct: Sequence[bool]) -> NisInstance:
    return NisInstance(tuple(inst.cue), tuple((p, c) for p, c in inst.scope if not punct[p]))

"""spaCy scorers for negation resolution, registered in ``@scorers``.

The scorers turn ``Doc`` objects into the plain records of
:mod:`spacy_negation.metrics.records` (:func:`~spacy_negation.scoring.doc_records.example_records`,
the counterpart of the *SEM file reader) and count on those
(:class:`~spacy_negation.scoring.counts.NegationCounter`).
``spacy-negation.negation_cue_scorer.v1`` (default of ``negation_cue``) scores the cues,
``spacy-negation.negation_scope_scorer.v1`` (default of ``negation_scope``) the scopes and
whole instances, so that ``nlp.evaluate`` computes each score once;
``spacy-negation.negation_scorer.v1`` gives both in one pass.
``spacy-negation.faireval_spans_scorer.v1`` applies FairEval to any span source
(``doc.ents`` or ``doc.spans[key]``).

Speculations: when the reference docs have a speculation span group (the BioScope and SFU
Review readers give one), every negation scorer also scores the speculation instances the
same way, under ``spec_*`` keys beside the ``neg_*`` keys (:func:`score_instances` scores
one kind). Both kinds get the CoNLL-2010 scope measure (Farkas et al. 2010,
:mod:`spacy_negation.metrics.conll2010`): ``neg_conll2010_p/r/f``, ``spec_conll2010_p/r/f``.
"""
import warnings
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from spacy.training import Example
from spacy.util import registry

from .doc_records import example_records, example_sentences, example_spans, has_annotation
from ..errors import Errors, Warnings
from ..metrics import faireval
from ..metrics.faireval import FairEvalCounts, count_into, scores_from_counts
from ..negation import NEGATIONS, SPECULATIONS, Kind
from .counts import CUE_TYPES, SHORT_METHODS, NegationCounter, flat_per_label

__all__ = ["CUE_TYPES", "NegationCounter", "example_records", "example_sentences",
           "example_spans", "make_faireval_spans_scorer", "make_negation_cue_scorer",
           "make_negation_scope_scorer", "make_negation_scorer", "score_instances", "score_negation_cues",
           "score_negation_scopes", "score_negations", "score_span_examples"]

ScoreFunc = Callable[..., Dict[str, Any]]


@registry.scorers("spacy-negation.negation_scorer.v1")
def make_negation_scorer() -> ScoreFunc:
    """The negation scorer with every key of the cue and the scope scorer, in one pass:
    *SEM 2012 (Morante & Blanco 2012, "*SEM 2012 Shared Task: Resolving the Scope and
    Focus of Negation", *SEM 2012; scorer eval.cd-sco.pl v2.2), NIS (Sineva, Grünewald,
    Friedrich & Kuhn 2021, "Negation-Instance Based Evaluation of End-to-End Negation
    Resolution", CoNLL 2021) and FairEval on negation spans (Ortmann 2022, "Fine-Grained
    Error Analysis and Fair Evaluation of Labeled Spans", LREC 2022). See
    :func:`score_negations`.

    RETURNS (Callable[..., Dict[str, Any]]): ``score_negations(examples, **kwargs)``.
    """
    return score_negations


@registry.scorers("spacy-negation.negation_cue_scorer.v1")
def make_negation_cue_scorer() -> ScoreFunc:
    """The cue scores of :func:`score_negations` (*SEM 2012 "Cues" and "Cues B" rows,
    Morante & Blanco 2012; NIS exact cue match, Sineva et al. 2021; per cue type).

    RETURNS (Callable[..., Dict[str, Any]]): ``score_negation_cues(examples, **kwargs)``.
    """
    return score_negation_cues


@registry.scorers("spacy-negation.negation_scope_scorer.v1")
def make_negation_scope_scorer() -> ScoreFunc:
    """The scope and instance scores of :func:`score_negations` (*SEM 2012 scope, scope
    token and full negation rows, Morante & Blanco 2012; NIS_tok, NIS_ex and token mode,
    Sineva et al. 2021; FairEval on negation spans, Ortmann 2022).

    RETURNS (Callable[..., Dict[str, Any]]): ``score_negation_scopes(examples, **kwargs)``.
    """
    return score_negation_scopes


@registry.scorers("spacy-negation.faireval_spans_scorer.v1")
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
        RETURNS (Dict[str, Any]): the FairEval scores (see :func:`score_span_examples`).
        """
        return score_span_examples(list(examples), spans_key)

    return score_faireval_spans


def score_negations(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """Score predicted negations (``doc.spans["negations"]``) against the reference docs
    with the *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et al. 2021, CoNLL) and
    FairEval (Ortmann 2022, LREC) metrics, all on the reference tokens: the keys of
    :func:`score_negation_cues` and :func:`score_negation_scopes`, counted in one pass.

    Punctuation: the *SEM rows and the FairEval negation spans apply the *SEM gold-POS
    rule to the reference ``token.tag_`` (tokens without a tag: ``token.is_punct``), as the
    official scorer does with the gold POS column; NIS uses the reference
    ``token.is_punct``.

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
        CUE, AFFIX, MWCUE, SCOPE as present); the CoNLL-2010 scope measure
        ``neg_conll2010_p/r/f`` (cue and both scope boundaries exact); and, when the
        reference docs have speculations, the same keys of the speculations under
        ``spec_*``.
    """
    return _score(examples, cues=True, scopes=True)


def score_negation_cues(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """The cue keys of :func:`score_negations`: ``neg_cue_*``, ``neg_cue_b_*``,
    ``neg_nis_cue_*`` and ``neg_cue_per_type`` (and the ``spec_*`` keys of the speculations).

    examples (Iterable[Example]): the examples.
    kwargs (Any): ignored (spaCy passes scorer settings).
    RETURNS (Dict[str, Any]): the scores (fractions).
    """
    return _score(examples, cues=True, scopes=False)


def score_negation_scopes(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """The scope and instance keys of :func:`score_negations` (every key but those of
    :func:`score_negation_cues`).

    examples (Iterable[Example]): the examples.
    kwargs (Any): ignored (spaCy passes scorer settings).
    RETURNS (Dict[str, Any]): the scores (fractions).
    """
    return _score(examples, cues=False, scopes=True)


#: The key prefix of each kind of instance.
PREFIXES = {"negation": "neg", "speculation": "spec"}


def score_instances(examples: Iterable[Example], kind: Kind = NEGATIONS, *, cues: bool = True,
                    scopes: bool = True) -> Dict[str, Any]:
    """The scores of one kind of instance (:data:`~spacy_negation.negation.NEGATIONS` or
    :data:`~spacy_negation.negation.SPECULATIONS`) under its prefix (``neg_*``,
    ``spec_*``): the keys of :func:`score_negations` for that kind.

    examples (Iterable[Example]): the examples.
    kind (Kind): the kind.
    cues (bool): the cue keys.
    scopes (bool): the scope and instance keys.
    RETURNS (Dict[str, Any]): the scores (fractions).
    """
    scores, dropped = _count(list(examples), kind, cues, scopes)
    if dropped:
        warnings.warn(Warnings.W002.format(n=dropped))
    return scores


def _count(examples: List[Example], kind: Kind, cues: bool, scopes: bool) -> Tuple[Dict[str, Any], int]:
    counter = NegationCounter(cues=cues, scopes=scopes, prefix=PREFIXES[kind.name])
    dropped = 0
    for eg in examples:
        gold, system, d = example_records(eg, kind)
        dropped += d
        for g, s in zip(gold, system):
            counter.add_records(g, s)
    return counter.scores(), dropped


def _score(examples: Iterable[Example], cues: bool, scopes: bool) -> Dict[str, Any]:
    """The negation scores, and the speculation scores when a reference doc has a
    speculation span group."""
    examples = list(examples)
    kinds = [NEGATIONS]
    if any(SPECULATIONS.key in eg.reference.spans for eg in examples):
        kinds.append(SPECULATIONS)
    out: Dict[str, Any] = {}
    dropped = 0
    for kind in kinds:
        scores, d = _count(examples, kind, cues, scopes)
        out.update(scores)
        dropped += d
    if dropped:
        warnings.warn(Warnings.W002.format(n=dropped))
    return out


def score_span_examples(examples: Iterable[Example], spans_key: Optional[str] = None, *,
                        focus: str = "target", weights: Any = faireval.PAPER_WEIGHTS,
                        prefix: str = "faireval") -> Dict[str, Any]:
    """FairEval (Ortmann 2022) of predicted against reference spans of spaCy examples,
    compared on the reference tokenization (see :func:`example_spans`). Examples whose
    reference doc lacks the annotation (no entity annotation for ``doc.ents``, no such key
    in ``doc.spans``) are skipped, as spaCy's own span scorers do; when no reference doc
    has the ``spans_key`` at all, that is an error (E214), not silent zeros.

    examples (Iterable[Example]): the examples.
    spans_key (Optional[str]): None for ``doc.ents``, else the ``doc.spans`` key.
    focus (str): "target" or "system" (LE/LBE attribution per label).
    weights (Union[str, Dict, None]): weights of "weighted" (default: the paper's).
    prefix (str): the prefix of every key (default "faireval", whatever the source).
    RETURNS (Dict[str, Any]): flat scores (fractions) ``{prefix}_trad_p/r/f``,
        ``{prefix}_fair_p/r/f``, ``{prefix}_weighted_p/r/f``, and ``{prefix}_per_label``:
        {label: {"trad_p", ..., "weighted_f"}}.
    RAISES (ValueError): a ``spans_key`` that no reference doc has (E214).
    """
    faireval.check_focus(focus)
    counts = FairEvalCounts()
    present: set = set()
    n_examples = 0
    for eg in examples:
        n_examples += 1
        present.update(eg.reference.spans.keys())
        if not has_annotation(eg.reference, spans_key):
            continue
        ref, pred = example_spans(eg, spans_key)
        count_into(counts, ref, pred, focus)
    if spans_key is not None and n_examples and not counts.n_sentences:
        raise ValueError(Errors.E214.format(key=spans_key,
                                            present=", ".join(sorted(present)) or "none"))
    result = scores_from_counts(counts, weights)
    out: Dict[str, Any] = {}
    for method in faireval.METHODS:
        for k in ("p", "r", "f"):
            out[f"{prefix}_{SHORT_METHODS[method]}_{k}"] = result[method][k]
    out[f"{prefix}_per_label"] = flat_per_label(result)
    return out

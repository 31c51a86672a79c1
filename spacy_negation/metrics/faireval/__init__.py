"""FairEval (Ortmann 2022): traditional, fair and weighted span scores, per label, with a
confusion matrix, exactly as the reference tool ``FairEval.py`` counts them, applied to
negation (negation spans, :func:`record_spans`) and to any spaCy span source.

Counting is separate from division; the family is split by role and re-exported here:

* :mod:`.spans`: :class:`FSpan`, :func:`overlap_type`, the negation spans of a
  record (:func:`record_spans`);
* :mod:`.count`: :func:`count_sentence` / :func:`count_spans` return
  :class:`FairEvalCounts` (overall, per label, confusion matrix, target label frequencies);
* :mod:`.score`: :func:`weighted_prf` turns one set of counts plus weights into
  P/R/F (via :mod:`..core`); :func:`scores_from_counts` builds the full result;
  :func:`faireval` does both steps.

Spans are :class:`FSpan` records (label, 1-based begin/end token, token set). The matching
follows the reference step by step, including its quirks:

* Q-F1 traditional TP/FP are membership tests: duplicated spans are each counted;
* Q-F2 same label and boundaries but other token set: one FP plus one FN;
* Q-F3 BE/LBE step a needs only overlapping *ranges*, no shared token;
* Q-F4 ties are broken by list order after the stable length sort;
* Q-F5 BE is always counted under the target label (also in step c, also with
  ``focus="system"``); only LE and LBE follow ``focus``;
* Q-F10 residual-token updates in steps b/c look the counted span up by value equality
  (implemented as such; with the stable most-similar choice the span found is always the
  chosen one, so no reference case can tell the difference).

Every remaining span is visited once per step (the reference's fixture f14 shows that a
span after a matched one is not skipped). LE and matched-as-TP spans never enter the
"counted" lists, so a later LBE cannot match them (reference behaviour).

Deliberate differences, outside the counting: :func:`parse_weights` rejects what the
reference silently reads as weight 0 (a term without coefficient such as ``FP``, unknown
error types, repeated terms); "weighted" without weights equals "fair" (the reference
drops it). Readers for the tool's own file formats are in :mod:`.io`.

Result keys: fractions ``p``, ``r``, ``f`` beside the counts; the spaCy-facing
``spacy_negation.scoring.scorers.score_span_examples`` returns flat ``faireval_*`` keys.
"""
from typing import Any, Dict, List, Mapping, Sequence, Union

from ...corpora.starsem import Sentence
from .count import (ErrorCounts, FairEvalCounts, check_focus, count_into,
                             count_sentence, count_spans)
from .score import (BE_WEIGHTS, BE_WEIGHTS_FORMULA, FAIR_WEIGHTS, PAPER_WEIGHTS,
                             PAPER_WEIGHTS_FORMULA, TRADITIONAL_WEIGHTS, Weights, faireval,
                             format_weights, parse_weights, scores_from_counts, weighted_prf)
from .spans import (AFFIX_LABEL, BE_TYPES, CUE_LABEL, FAIR_TYPES, FOCUS_VALUES,
                             METHODS, MWCUE_LABEL, NONE_LABEL, SCOPE_LABEL, TRADITIONAL_TYPES,
                             FSpan, overlap_type, record_spans)
from ..starsem.io import sentence_record

__all__ = ["AFFIX_LABEL", "BE_TYPES", "BE_WEIGHTS", "BE_WEIGHTS_FORMULA", "CUE_LABEL",
           "FAIR_TYPES", "FAIR_WEIGHTS", "FOCUS_VALUES", "METHODS", "MWCUE_LABEL", "NONE_LABEL",
           "PAPER_WEIGHTS", "PAPER_WEIGHTS_FORMULA", "SCOPE_LABEL", "TRADITIONAL_TYPES",
           "TRADITIONAL_WEIGHTS", "ErrorCounts", "FSpan", "FairEvalCounts", "Weights",
           "check_focus", "count_into", "count_sentence", "count_spans", "faireval",
           "format_weights", "negation_faireval", "negation_spans", "overlap_type",
           "parse_weights", "record_spans", "scores_from_counts", "weighted_prf"]


def negation_spans(sentence: Sentence) -> List[FSpan]:
    """FairEval negation spans of a *SEM sentence (see :func:`record_spans`), punctuation
    by its own POS column (:func:`spacy_negation.corpora.starsem.is_punct_pos`).

    sentence (Sentence): the sentence.
    RETURNS (List[FSpan]): the spans in instance order, cue before scope.
    """
    return record_spans(sentence_record(sentence))


def negation_faireval(gold: Sequence[Sentence], system: Sequence[Sentence],
                      weights: Union[str, Mapping[str, Mapping[str, float]], None] = PAPER_WEIGHTS,
                      ) -> Dict[str, Any]:
    """FairEval on negation spans (:func:`record_spans`): focus target, paper weights by default.

    gold (Sequence[Sentence]): the gold sentences.
    system (Sequence[Sentence]): the system sentences, aligned with gold.
    weights (Union[str, Dict, None]): weights of "weighted".
    RETURNS (Dict[str, Any]): see :func:`scores_from_counts`.
    """
    return faireval([negation_spans(s) for s in gold], [negation_spans(s) for s in system],
                    "target", weights)

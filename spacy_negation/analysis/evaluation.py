"""Evaluation helpers for trained pipelines and stored system files: the inputs a pipeline
runs on (the gold tokens, optionally the gold cues), and the scores of system docs or
files in the three metric families -- *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et
al. 2021) and FairEval on negation spans (Ortmann 2022).
"""
import time
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab

from ..corpora.docs import META_KEY
from ..errors import Errors
from ..corpora.starsem import Sentence
from ..corpora.starsem_docs import doc_to_sentences, write_starsem_docs
from ..metrics.evaluate import FAMILIES, evaluate_files, evaluate_sentences, to_json
from ..negation import SPECULATIONS_KEY, get_convention, set_convention, set_negations, set_speculations
from ..scoring.scorers import score_negations
from ..util import atomic_write_text

#: The cue component a scope-only evaluation on gold cues disables (with every other
#: ``negation_cue`` component of the pipeline: :func:`cue_components`).
CUE_COMPONENT = "negation_cue"


def evaluate(gold: Union[str, Path], system: Union[str, Path],
             families: Sequence[str] = FAMILIES) -> Dict[str, Any]:
    """Score a *SEM system file against its gold file: the document ``python -m
    spacy_negation evaluate GOLD SYSTEM --json`` prints.

    gold (Union[str, Path]): the gold *SEM 2012 CoNLL file.
    system (Union[str, Path]): the system file, token-aligned with gold.
    families (Sequence[str]): any of "starsem", "nis", "faireval" (default: all).
    RETURNS (Dict[str, Any]): per family the scores as fractions (see
        :func:`spacy_negation.metrics.evaluate.to_json`).
    RAISES (NegationFormatError, FileNotFoundError): bad or misaligned input, with file and
        line.
    """
    return to_json(evaluate_files(gold, system, families))


def doc_sentences(docs: Iterable[Doc]) -> List[Sentence]:
    """The *SEM sentences of docs, numbered by their position.

    docs (Iterable[Doc]): the docs.
    RETURNS (List[Sentence]): their sentences, in order.
    """
    return [s for i, d in enumerate(docs) for s in doc_to_sentences(d, i)]


def score_docs(system: Sequence[Doc], gold: Sequence[Doc]) -> Dict[str, Any]:
    """Score system docs against parallel gold docs twice: with the spaCy scorer on the
    reference tokens, and file-style on their *SEM sentences.

    system (Sequence[Doc]): the annotated docs.
    gold (Sequence[Doc]): the gold docs, parallel to system.
    RETURNS (Dict[str, Any]): {"scores": the flat scores of
        :func:`spacy_negation.scoring.scorers.score_negations` (``neg_*``, and ``spec_*``
        where the gold annotates speculation: BioScope, SFU Review, NUBes), "detail": the
        document of :func:`evaluate` on the docs' *SEM sentences (negation)}.
    """
    scores = score_negations([Example(p, g) for p, g in zip(system, gold)])
    detail = to_json(evaluate_sentences(doc_sentences(gold), doc_sentences(system)))
    return {"scores": scores, "detail": detail}


def annotate_gold(nlp: Language, gold: Sequence[Doc], *, convention: Optional[str] = None,
                  gold_cues: bool = False, punct_tags: bool = False,
                  batch_size: int = 32) -> Tuple[List[Doc], float]:
    """Run a negation pipeline on the tokens and sentence boundaries of gold docs: end to
    end, or with ``gold_cues`` on the gold cues (every cue component disabled: scope
    resolution only). On gold cues a doc gets the gold speculation cues too where the
    gold annotates speculation and a scope component that annotates the doc resolves
    speculation (:func:`resolves_speculation_on`): their scopes are resolved as the
    negations'. A model that resolves no speculation gets none, as end to end.

    nlp (Language): the negation pipeline.
    gold (Sequence[Doc]): the gold docs (marked with ``convention`` and, with
        ``punct_tags``, tagged by :func:`tag_punct` in place).
    convention (Optional[str]): the annotation convention to mark the docs with (a model
        with components per convention annotates them in it; None: the docs' own marks).
    gold_cues (bool): copy the gold cues (negation and, as above, speculation) and resolve
        their scopes only.
    punct_tags (bool): tag the gold docs' untagged tokens for the *SEM punctuation rule
        (corpora without POS tags: BioScope, SFU Review).
    batch_size (int): docs per batch.
    RETURNS (Tuple[List[Doc], float]): the annotated docs, parallel to gold, and the
        seconds the pipeline took.
    """
    if convention is not None:
        check_convention(nlp, convention)
    for doc in gold:
        if convention is not None:
            set_convention(doc, convention)
        if punct_tags:
            tag_punct(doc)
    inputs = [blank_copy(nlp.vocab, g, gold_cues,
                         speculation_cues=gold_cues and resolves_speculation_on(nlp, g)) for g in gold]
    disable = cue_components(nlp) if gold_cues else []
    start = time.perf_counter()
    system = list(nlp.pipe(inputs, batch_size=batch_size, disable=disable))
    return system, time.perf_counter() - start


def cue_components(nlp: Language) -> List[str]:
    """The names of a pipeline's cue components (``negation_cue``, and those of other
    conventions such as ``negation_cue_sfu``): what a scope-only evaluation on gold cues
    disables, so that no cue component of the doc's convention overwrites the gold cues.

    nlp (Language): the negation pipeline.
    RETURNS (List[str]): the names, in pipeline order (:data:`CUE_COMPONENT` among them
        when the pipeline has it).
    """
    from ..pipeline.cue import NegationCue

    return [name for name, pipe in nlp.pipeline if name == CUE_COMPONENT or isinstance(pipe, NegationCue)]


def resolves_speculation_on(nlp: Language, doc: Doc) -> bool:
    """Whether a pipeline resolves the scopes of a doc's speculation cues: one of its scope
    components annotates the doc (its convention) and resolves speculation (its kinds,
    not switched off).

    nlp (Language): the negation pipeline.
    doc (Doc): the doc (with its convention mark).
    RETURNS (bool): whether it does.
    """
    from ..pipeline.scope import NegationScope

    return any(isinstance(pipe, NegationScope) and pipe.resolves_speculation and pipe.annotates(doc)
               for _, pipe in nlp.pipeline)


def check_convention(nlp: Language, convention: str) -> None:
    """Refuse a convention that a model with components per convention has none for (its
    docs would come out without negations); a model of one convention annotates every doc
    in its own.

    nlp (Language): the negation pipeline.
    convention (str): the convention to annotate in.
    RAISES (ValueError): E901.
    """
    from ..pipeline.base import NegationPipe

    available = sorted({pipe.convention for _, pipe in nlp.pipeline
                        if isinstance(pipe, NegationPipe) and pipe.convention is not None})
    if available and convention not in available:
        model = str(nlp.path) if nlp.path is not None else f"{nlp.lang}_{nlp.meta.get('name', 'pipeline')}"
        raise ValueError(Errors.E901.format(model=model, convention=convention,
                                            available=", ".join(available)))


def results_document(system: Sequence[Doc], gold: Sequence[Doc], seconds: float,
                     gold_cues: bool) -> Dict[str, Any]:
    """The scores document of system docs against gold docs: :func:`score_docs`' "scores"
    and "detail", "speed" ({"words", "seconds", "words_per_second"}) and "gold_cues".

    system (Sequence[Doc]): the annotated docs, parallel to gold.
    gold (Sequence[Doc]): the gold docs.
    seconds (float): the time the annotation took.
    gold_cues (bool): whether the system docs carried the gold cues.
    RETURNS (Dict[str, Any]): the document.
    """
    n_words = sum(len(d) for d in system)
    speed = {"words": n_words, "seconds": seconds,
             "words_per_second": n_words / seconds if seconds else 0.0}
    return {**score_docs(system, gold), "speed": speed, "gold_cues": gold_cues}


def write_results(system: Sequence[Doc], gold: Sequence[Doc], system_out: Optional[Path],
                  scores_out: Optional[Path], seconds: float, gold_cues: bool) -> Dict[str, Any]:
    """Write the system *SEM file and the scores JSON (:func:`results_document`) of system
    docs against gold docs, each file atomically.

    system (Sequence[Doc]): the annotated docs, parallel to gold.
    gold (Sequence[Doc]): the gold docs.
    system_out (Optional[Path]): the *SEM file to write (None: none).
    scores_out (Optional[Path]): the JSON file to write (None: none).
    seconds (float): the time the annotation took.
    gold_cues (bool): whether the system docs carried the gold cues.
    RETURNS (Dict[str, Any]): the scores document.
    """
    import srsly

    result = results_document(system, gold, seconds, gold_cues)
    if system_out is not None:
        write_starsem_docs(system, system_out)
    if scores_out is not None:
        atomic_write_text(scores_out, srsly.json_dumps(result, indent=2))
    return result


def summary_line(result: Dict[str, Any]) -> str:
    """The headline scores of a document of :func:`write_results`, in percent.

    result (Dict[str, Any]): the document.
    RETURNS (str): e.g. "Cues-B F1 92.10, SCM-B F1 ..., NIS_tok F1 ... (N words, M words/s)".
    """
    scores, speed = result["scores"], result["speed"]
    return (f"Cues-B F1 {100 * scores['neg_cue_b_f']:.2f}, SCM-B F1 {100 * scores['neg_scm_b_f']:.2f}, "
            f"scope tokens F1 {100 * scores['neg_st_f']:.2f}, "
            f"NIS_tok F1 {100 * scores['neg_nis_tok_f']:.2f} ({speed['words']} words, "
            f"{speed['words_per_second']:.0f} words/s)")


def blank_copy(vocab: Vocab, gold: Doc, with_cues: bool, *, speculation_cues: bool = True) -> Doc:
    """The gold doc's tokens, spaces, sentence starts, lemmas, tags, *SEM ids and
    convention mark in another vocab (the negation components use none but the tokens and
    the mark; the rest makes the exported system file line up with the gold file), with
    the gold cues (no scopes, no events) if asked: the negation cues, and the speculation
    cues where the gold annotates speculation (its ``speculations`` span group) unless
    ``speculation_cues`` is False.

    vocab (Vocab): the pipeline's vocab.
    gold (Doc): the gold doc.
    with_cues (bool): copy the gold cues (scope resolution on gold cues).
    speculation_cues (bool): with ``with_cues``, copy the gold speculation cues too (False
        for a pipeline that resolves no speculation on the doc: :func:`annotate_gold`).
    RETURNS (Doc): the copy.
    """
    doc = Doc(vocab, words=[t.text for t in gold], spaces=[bool(t.whitespace_) for t in gold],
              sent_starts=[bool(t.is_sent_start) for t in gold],
              lemmas=[t.lemma_ for t in gold], tags=[t.tag_ for t in gold])
    if META_KEY in gold.user_data:
        doc.user_data[META_KEY] = gold.user_data[META_KEY]
    set_convention(doc, get_convention(gold))
    if with_cues:
        negs = sorted(gold._.negations, key=lambda n: n.id)
        set_negations(doc, [{"cue": list(n.cue)} for n in negs])
        if speculation_cues and SPECULATIONS_KEY in gold.spans:
            specs = sorted(gold._.speculations, key=lambda s: s.id)
            set_speculations(doc, [{"cue": list(s.cue)} for s in specs])
    return doc


def tag_punct(doc: Doc) -> None:
    """Tag the untagged tokens of a doc '.' (punctuation by spaCy's ``Token.is_punct``)
    or 'XX'; tagged tokens keep their tags. Corpora without POS tags (BioScope, SFU) so
    get the *SEM 2012 punctuation rule (a tag without letters or digits).

    doc (Doc): the doc, changed in place.
    """
    for token in doc:
        if not token.tag_:
            token.tag_ = "." if token.is_punct else "XX"

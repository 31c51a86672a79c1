"""Evaluation helpers for trained pipelines and stored system files: the inputs a pipeline
runs on (the gold tokens, optionally the gold cues), and the scores of system docs or
files in the three metric families -- *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et
al. 2021) and FairEval on negation spans (Ortmann 2022).
"""
from pathlib import Path
from typing import Any, Dict, Iterable, List, Sequence, Union

from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab

from ..corpora.docs import META_KEY
from ..corpora.starsem import Sentence
from ..corpora.starsem_docs import doc_to_sentences, write_starsem_docs
from ..metrics.evaluate import FAMILIES, evaluate_files, evaluate_sentences, to_json
from ..negation import get_convention, set_convention, set_negations
from ..scoring.scorers import score_negations
from ..util import atomic_write_text


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
    RETURNS (Dict[str, Any]): {"scores": the flat ``neg_*`` scores of
        :func:`spacy_negation.scoring.scorers.score_negations`, "detail": the document of
        :func:`evaluate` on the docs' *SEM sentences}.
    """
    scores = score_negations([Example(p, g) for p, g in zip(system, gold)])
    detail = to_json(evaluate_sentences(doc_sentences(gold), doc_sentences(system)))
    return {"scores": scores, "detail": detail}


def write_results(system: Sequence[Doc], gold: Sequence[Doc], system_out: Path, scores_out: Path,
                  seconds: float, gold_cues: bool) -> Dict[str, Any]:
    """Write the system *SEM file and the scores JSON of system docs against gold docs
    (each file atomically).

    system (Sequence[Doc]): the annotated docs, parallel to gold.
    gold (Sequence[Doc]): the gold docs.
    system_out (Path): the *SEM file to write.
    scores_out (Path): the JSON file to write: :func:`score_docs`' "scores" and "detail",
        "speed" ({"words", "seconds", "words_per_second"}) and "gold_cues".
    seconds (float): the time the annotation took.
    gold_cues (bool): whether the system docs carried the gold cues.
    RETURNS (Dict[str, Any]): the JSON document written.
    """
    import srsly

    n_words = sum(len(d) for d in system)
    write_starsem_docs(system, system_out)
    speed = {"words": n_words, "seconds": seconds,
             "words_per_second": n_words / seconds if seconds else 0.0}
    result = {**score_docs(system, gold), "speed": speed, "gold_cues": gold_cues}
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


def blank_copy(vocab: Vocab, gold: Doc, with_cues: bool) -> Doc:
    """The gold doc's tokens, spaces, sentence starts, lemmas, tags, *SEM ids and
    convention mark in another vocab (the negation components use none but the tokens and
    the mark; the rest makes the exported system file line up with the gold file), with
    the gold cues (no scopes, no events) if
    asked.

    vocab (Vocab): the pipeline's vocab.
    gold (Doc): the gold doc.
    with_cues (bool): copy the gold cues (scope resolution on gold cues).
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

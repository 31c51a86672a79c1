"""Evaluate a trained negation pipeline on a gold .spacy file.

python scripts/evaluate_model.py MODEL GOLD.spacy SYSTEM_OUT.txt SCORES_OUT.json [--gold-cues]

End to end (default): the pipeline runs on the gold tokens and sentence boundaries and
predicts cues, scopes and events. With --gold-cues the doc carries the gold cues and only
the scope component (and the transformer it listens to) runs: scope resolution on gold
cues. Writes the system *SEM file and a JSON with the spaCy scorer's flat ``neg_*``
scores, the full ``evaluate --json`` document and the speed.
"""
import argparse
import sys
import time
from pathlib import Path
from typing import List

import spacy
import srsly
from spacy.tokens import Doc
from spacy.training import Example

from spacy_negation import register_extensions, set_negations
from spacy_negation.cli.evaluate import evaluate_sentences, to_json
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.starsem_docs import doc_to_sentences, write_starsem_docs
from spacy_negation.scorers import score_negations
from spacy_negation.util import atomic_write_text

CUE_COMPONENT = "negation_cue"


def blank_copy(nlp: spacy.Language, gold: Doc, with_cues: bool) -> Doc:
    """The gold doc's tokens, spaces, sentence starts, lemmas, tags and *SEM ids in the
    pipeline's vocab (the negation components use none but the tokens; the rest makes the
    exported system file line up with the gold file), with the gold cues (no scopes, no
    events) if asked."""
    doc = Doc(nlp.vocab, words=[t.text for t in gold], spaces=[bool(t.whitespace_) for t in gold],
              sent_starts=[bool(t.is_sent_start) for t in gold],
              lemmas=[t.lemma_ for t in gold], tags=[t.tag_ for t in gold])
    if META_KEY in gold.user_data:
        doc.user_data[META_KEY] = gold.user_data[META_KEY]
    if with_cues:
        negs = sorted(gold._.negations, key=lambda n: n.id)
        set_negations(doc, [{"cue": list(n.cue)} for n in negs])
    return doc


def tag_punct(doc: Doc) -> None:
    """Tag the untagged tokens of a doc '.' (punctuation by spaCy's ``Token.is_punct``)
    or 'XX'; tagged tokens keep their tags."""
    for token in doc:
        if not token.tag_:
            token.tag_ = "." if token.is_punct else "XX"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("gold", type=Path)
    parser.add_argument("system_out", type=Path)
    parser.add_argument("scores_out", type=Path)
    parser.add_argument("--gold-cues", action="store_true", help="scope resolution on gold cues")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--tag-punct", action="store_true",
                        help="corpora without POS tags (BioScope, SFU): tag the untagged gold "
                             "tokens '.' if spaCy's Token.is_punct, else 'XX', so that the *SEM "
                             "punctuation rule (a tag without letters or digits) applies")
    args = parser.parse_args()
    register_extensions()
    nlp = spacy.load(args.model)
    gold = read_docbin(args.gold, vocab=nlp.vocab)
    if args.tag_punct:
        for doc in gold:
            tag_punct(doc)
    inputs = [blank_copy(nlp, g, args.gold_cues) for g in gold]
    disable: List[str] = [CUE_COMPONENT] if args.gold_cues else []
    start = time.perf_counter()
    system = list(nlp.pipe(inputs, batch_size=args.batch_size, disable=disable))
    seconds = time.perf_counter() - start
    mode = "gold cues" if args.gold_cues else "end to end"
    write_results(system, gold, args.system_out, args.scores_out, seconds, args.gold_cues,
                  f"{args.model} on {args.gold} ({mode})")


def write_results(system: List[Doc], gold: List[Doc], system_out: Path, scores_out: Path,
                  seconds: float, gold_cues: bool, title: str) -> None:
    """Write the system *SEM file and the scores JSON of system docs against gold docs,
    and print the headline scores.

    system (List[Doc]): the annotated docs, parallel to gold.
    gold (List[Doc]): the gold docs.
    system_out (Path): the *SEM file to write.
    scores_out (Path): the JSON file to write.
    seconds (float): the time the annotation took.
    gold_cues (bool): whether the system docs carried the gold cues.
    title (str): what was evaluated, for the printed line.
    """
    n_words = sum(len(d) for d in system)
    write_starsem_docs(system, system_out)
    scores = score_negations([Example(p, g) for p, g in zip(system, gold)])
    gold_s = [s for i, d in enumerate(gold) for s in doc_to_sentences(d, i)]
    sys_s = [s for i, d in enumerate(system) for s in doc_to_sentences(d, i)]
    detail = to_json(evaluate_sentences(gold_s, sys_s))
    speed = {"words": n_words, "seconds": seconds, "words_per_second": n_words / seconds if seconds else 0.0}
    atomic_write_text(scores_out, srsly.json_dumps(
        {"scores": scores, "detail": detail, "speed": speed, "gold_cues": gold_cues}, indent=2))
    print(f"{title}: Cues-B F1 {100 * scores['neg_cue_b_f']:.2f}, "
          f"SCM-B F1 {100 * scores['neg_scm_b_f']:.2f}, scope tokens F1 {100 * scores['neg_st_f']:.2f}, "
          f"NIS_tok F1 {100 * scores['neg_nis_tok_f']:.2f} ({n_words} words, "
          f"{speed['words_per_second']:.0f} words/s)", file=sys.stderr)


if __name__ == "__main__":
    main()

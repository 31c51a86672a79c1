"""The helpers of the tests that resolve speculation beside negation: synthetic sentences
with "not"/"no" negations and "might"/"possible"/"either … or" speculations, and the tiny CNN
pipeline (tok2vec + negation_cue and negation_scope with ``kinds = ["negation",
"speculation"]``, the scope model ``spacy-negation.ScopeTagger.v2``) that learns them. The
session fixtures ``hedge`` (a :class:`Hedge`) and ``hedge_cnn_dir`` (that pipeline trained on
them, saved once per session) are in ``tests/conftest.py``."""
from typing import Any, Dict, List, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example

from spacy_negation import get_negations, get_speculations, set_negations, set_speculations

from util import CNN_TINY, load_test_nlp, overfit

#: The config overrides of the tiny CNN test config that make it learn both kinds.
BOTH_KINDS: Dict[str, Any] = {
    "components.negation_cue.kinds": ["negation", "speculation"],
    "components.negation_scope.kinds": ["negation", "speculation"],
    "components.negation_scope.model.@architectures": "spacy-negation.ScopeTagger.v2",
}

_SUBJECTS = [["The", "patient"], ["The", "drug"], ["The", "test"], ["The", "scan"], ["The", "nurse"], ["The", "child"]]
_VERBS = ["help", "work", "improve", "change", "recover", "respond"]
_PAST = ["helped", "worked", "improved", "changed", "recovered", "responded"]
_NOUNS = ["fever", "pain", "cough", "rash", "swelling", "bleeding"]

#: A sentence: its words, its negations and its speculations (token indices per role).
Sentence = Tuple[List[str], List[Dict[str, List[int]]], List[Dict[str, List[int]]]]


def hedge_sentences() -> List[Sentence]:
    """42 sentences: negations ("did not", "no"), speculations ("might", "possible",
    "either … or"), both in one sentence ("might not": the negation's scope leaves out
    "might", the speculation's takes in "not") and sentences with neither."""
    out: List[Sentence] = []
    for k in range(6):
        s, other = _SUBJECTS[k], _SUBJECTS[(k + 3) % 6]
        v, v2, past, noun = _VERBS[k], _VERBS[(k + 2) % 6], _PAST[(k + 1) % 6], _NOUNS[(k + 2) % 6]
        out.append((s + ["did", "not", v, "."], [{"cue": [3], "scope": [0, 1, 4]}], []))
        out.append((["There", "was", "no", noun, "."], [{"cue": [2], "scope": [3]}], []))
        out.append((s + ["might", v, "."], [], [{"cue": [2], "scope": [0, 1, 3]}]))
        out.append((["It", "is", "possible", "that", other[0].lower(), other[1], past, "."], [],
                    [{"cue": [2], "scope": [3, 4, 5, 6]}]))
        out.append((other + ["might", "not", v, "."], [{"cue": [3], "scope": [0, 1, 4]}],
                    [{"cue": [2], "scope": [0, 1, 3, 4]}]))
        out.append((s + ["will", "either", v, "or", v2, "."], [], [{"cue": [3, 5], "scope": [0, 1, 2, 4, 6]}]))
        out.append((s + [past, "."], [], []))
    return out


def _whole(words: Sequence[str], idx: Sequence[int]) -> List[Tuple[int, int, int]]:
    return [(i, 0, len(words[i])) for i in idx]


def hedge_reference(vocab: Any, words: List[str], negations: List[Dict[str, List[int]]],
                    speculations: List[Dict[str, List[int]]]) -> Doc:
    """A one-sentence reference doc with its negations and speculations (whole tokens)."""
    spaces = [i + 1 < len(words) and words[i + 1] != "." for i in range(len(words))]
    doc = Doc(vocab, words=words, spaces=spaces, sent_starts=[True] + [False] * (len(words) - 1))
    set_negations(doc, [{role: _whole(words, idx) for role, idx in neg.items()} for neg in negations])
    set_speculations(doc, [{role: _whole(words, idx) for role, idx in spec.items()} for spec in speculations])
    return doc


def hedge_examples(nlp: Language) -> List[Example]:
    """The hedge sentences as examples (predicted docs from the pipeline's tokenizer)."""
    examples = []
    for words, negations, speculations in hedge_sentences():
        ref = hedge_reference(nlp.vocab, words, negations, speculations)
        examples.append(Example(nlp.make_doc(ref.text), ref))
    return examples


def kind_key(doc: Doc) -> Tuple[List[Any], List[Any]]:
    """Comparable negations and speculations of a doc: (cue, scope) parts of each."""
    def parts(instances: Sequence[Any]) -> List[Any]:
        return [tuple(tuple((p.i, p.start, p.end) for p in inst.parts(role)) for role in ("cue", "scope"))
                for inst in instances]

    return parts(get_negations(doc)), parts(get_speculations(doc))


def train_until_gold(nlp: Language, examples: List[Example], max_iter: int = 100, learn_rate: float = 0.01) -> int:
    """Train until the pipeline predicts the negations and speculations of the examples;
    the number of iterations (max_iter + 1 if never)."""
    return overfit(nlp, examples, max_iter, learn_rate=learn_rate, key=kind_key)


def both_kinds_nlp(lang: str = "en") -> Language:
    """The tiny CNN test pipeline learning both kinds (not initialized)."""
    return load_test_nlp(CNN_TINY, {**BOTH_KINDS, "nlp.lang": lang})


class Hedge:
    """The helpers of the speculation tests (the ``hedge`` fixture)."""

    BOTH_KINDS = BOTH_KINDS
    sentences = staticmethod(hedge_sentences)
    reference = staticmethod(hedge_reference)
    examples = staticmethod(hedge_examples)
    key = staticmethod(kind_key)
    train = staticmethod(train_until_gold)
    nlp = staticmethod(both_kinds_nlp)

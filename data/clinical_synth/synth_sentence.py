"""The pieces of every template of the synthetic clinical sentences (``generate.py``): the
sentence built piece by piece with the character ranges of its cues, scopes and concepts,
and the seeded generator's word choices that the templates share.
"""
import random
from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar

from synth_lexicon import SIGNS, SITE_NORMALS, SYMPTOMS

Range = List[int]
T = TypeVar("T")


class Sentence:
    """A sentence built piece by piece, with the character ranges of cues, scopes and
    concepts."""

    def __init__(self) -> None:
        self.text = ""
        self.negations: List[Dict[str, List[Range]]] = []
        self.concepts: List[Dict[str, Any]] = []

    def neg(self) -> int:
        """Start a negation instance; RETURNS its index."""
        self.negations.append({"cue": [], "scope": []})
        return len(self.negations) - 1

    def add(self, text: str, cue: Optional[int] = None, scope: Optional[int] = None,
            concept: Optional[bool] = None, space: bool = True) -> "Sentence":
        """Append text (after a space unless it is punctuation or the start), as the cue or
        scope of an instance and/or a concept (negated or not)."""
        if self.text and space and text[0] not in ",.;:":
            self.text += " "
        start = len(self.text)
        self.text += text
        end = len(self.text)
        if cue is not None:
            self.negations[cue]["cue"].append([start, end])
        if scope is not None:
            self.negations[scope]["scope"].append([start, end])
        if concept is not None:
            self.concepts.append({"start": start, "end": end, "text": text, "negated": concept})
        return self

    def mark_scope(self, n: int, start: int, end: int, concept: bool = False) -> "Sentence":
        """Put characters already written into the scope of instance n (and mark them as a
        negated concept)."""
        self.negations[n]["scope"].append([start, end])
        if concept:
            self.concepts.append({"start": start, "end": end, "text": self.text[start:end], "negated": True})
        return self

    def items(self, words: Sequence[str], conj: str, scope: Optional[int] = None,
              negated: bool = False, oxford: bool = True, prefix: str = "") -> "Sentence":
        """Append a coordinated list ("A, B, or C"), every piece in the scope if given."""
        last = len(words) - 1
        for k, word in enumerate(words):
            if k and len(words) > 2 and (k < last or oxford):
                self.add(",", scope=scope, space=False)
            if k and k == last:
                self.add(conj, scope=scope)
            if prefix and k == 0:
                self.add(prefix, scope=scope)
            self.add(word, scope=scope, concept=negated)
        return self

    def record(self) -> Dict[str, Any]:
        """The JSON record (ranges of one role merged where only a space separates them)."""
        negations = [{"cue": merge(n["cue"], self.text), "scope": merge(n["scope"], self.text)}
                     for n in self.negations]
        return {"text": self.text, "negations": negations, "concepts": self.concepts}


def merge(ranges: List[Range], text: str) -> List[Range]:
    """Sorted ranges with the ones separated only by whitespace joined."""
    out: List[Range] = []
    for start, end in sorted(ranges):
        if out and not text[out[-1][1]:start].strip():
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return out


def cap(word: str) -> str:
    """The word with its first letter upper-cased."""
    return word[:1].upper() + word[1:]


class GeneratorBase:
    """The word choices of the templates, from one seeded generator (the templates are the
    methods of ``synth_templates.Generator``)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, words: Sequence[T], k: int = 1) -> List[T]:
        """k distinct items."""
        return self.rng.sample(list(words), k)

    def one(self, words: Sequence[T], avoid: Sequence[T] = ()) -> T:
        """One item that is not in avoid."""
        return self.rng.choice([w for w in words if w not in avoid])

    def sentence(self, template: Callable[[Any, Sentence], None]) -> Sentence:
        """A sentence of a template (``synth_templates.TEMPLATES``), ended with a full stop."""
        s = Sentence()
        template(self, s)
        s.add(".", space=False)
        return s

    def site(self, s: Sentence) -> List[str]:
        """Add an examined site (an affirmed concept); RETURNS its normal descriptors."""
        site, normals = self.one(SITE_NORMALS)
        s.add(site, concept=False)
        return normals

    def findings(self, k: int) -> List[str]:
        return self.pick(self.one([SYMPTOMS, SIGNS, SYMPTOMS + SIGNS]), k)

    def n_items(self) -> int:
        return self.rng.choice([1, 1, 2, 2, 3, 3, 4, 5])

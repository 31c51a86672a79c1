"""The templates of the synthetic clinical sentences (``generate.py``) by name and weight:
the negated ones (``synth_negated.py``), then the counter-examples without negation
(affirmed findings, clinical words with negative-looking affixes, pseudo-negations).
"""
from typing import Callable, Dict, Tuple

from synth_lexicon import (AFFIX_DESCRIPTORS, AFFIX_FINDINGS, AFFIX_SITES, DIAGNOSES, IMAGING, SIGNS, SUBJECTS, SYMPTOMS,
                           TESTS, TREATMENTS)
from synth_negated import NegatedTemplates
from synth_sentence import Sentence, cap


class Generator(NegatedTemplates):
    """Every template (the negated ones inherited), each a method that writes one sentence
    (all but its final full stop, which :meth:`sentence` adds) into ``s``, drawing its words
    from one seeded generator."""

    def affirmed(self, s: Sentence) -> None:
        """Present findings without negation."""
        form = self.rng.random()
        if form < 0.3:
            s.add(self.one(SUBJECTS))
            s.add(self.one(["reports", "endorses", "complains of", "notes", "has", "describes"]))
            s.items(self.findings(self.rng.choice([1, 2, 3])), "and", negated=False)
        elif form < 0.5:
            s.add(self.one(["Positive for", "Significant for", "Notable for", "Presence of", "Positive"]))
            s.items(self.findings(self.rng.choice([1, 2, 3])), "and", negated=False)
        elif form < 0.7:
            s.add(cap(self.one(IMAGING + SIGNS)), concept=False)
            s.add(self.one(["is present", "is seen", "was noted", "is again seen", "persists",
                            "is identified", "has worsened"]))
        elif form < 0.85:
            tests = self.pick(TESTS, self.rng.choice([1, 2]))
            for k, t in enumerate(tests):
                if k:
                    s.add(",", space=False)
                s.add(cap(t) if k == 0 else t, concept=False)
                s.add(self.one(["+ve", "positive", "pos", "elevated", "reactive"]))
        else:
            s.add(self.one(["History of", "Known", "Family history of", "Ongoing", "Worsening"]))
            s.add(self.one(DIAGNOSES + SYMPTOMS), concept=False)

    def affix(self, s: Sentence) -> None:
        """Clinical words with negative-looking affixes: no cue, the finding is present."""
        form = self.rng.random()
        if form < 0.5:
            sev = self.one(["", "", "Mild ", "Moderate ", "Severe ", "Chronic ", "Worsening "])
            if sev:
                s.add(sev.strip())
            f = self.one(AFFIX_FINDINGS)
            s.add(f if sev else cap(f), concept=False)
            if self.rng.random() < 0.5:
                s.add(self.one(["is present", "noted", "on echo", "requiring admission", "persists",
                                "with exacerbation"]))
        elif form < 0.8:
            s.add(self.one(AFFIX_SITES), concept=False)
            s.add(self.one(["is", "was", "otherwise", "is otherwise"]))
            s.add(self.one(["unremarkable", "unremarkable", "noncontributory"]))
        else:
            site, descriptor = self.rng.choice(AFFIX_DESCRIPTORS)
            s.add(site, concept=False)
            s.add(descriptor)
            if self.rng.random() < 0.4:
                s.add(self.one(["and soft", "to palpation", "throughout", "today"]))

    def pseudo(self, s: Sentence) -> None:
        """Pseudo-negations (NegEx): "no change in", "no increase in", "not only ... but also",
        "gram negative", "free air", "to rule out": no negation."""
        form = self.rng.random()
        if form < 0.45:
            s.add(self.one(["No change in", "No significant change in", "No interval change in",
                            "No increase in", "No significant increase in", "No further increase in"]))
            s.add(self.one(["the", "", "size of the"]) or "the")
            s.add(self.one(IMAGING), concept=False)
            if self.rng.random() < 0.4:
                s.add(self.one(["since the prior study", "compared with last year", "from prior"]))
        elif form < 0.65:
            a, b = self.pick(SYMPTOMS + SIGNS, 2)
            s.add("Not only")
            s.add(a, concept=False)
            s.add("but also")
            s.add(b, concept=False)
        elif form < 0.8:
            s.add(self.one(["Gram negative", "Gram-negative"]))
            s.add(self.one(["bacilli in the blood", "organisms on culture", "bloodstream infection", "urosepsis"]), concept=False)
        elif form < 0.9:
            s.add(self.one(["CT", "MRI", "Ultrasound", "Lumbar puncture", "Echo"]))
            s.add(self.one(["ordered", "planned", "recommended"]))
            s.add(self.one(["to rule out", "to exclude", "to evaluate for"]))
            s.add(self.one(DIAGNOSES), concept=False)
        else:
            s.add(cap(self.one(SYMPTOMS + DIAGNOSES)), concept=False)
            s.add("has")
            n = s.neg()  # a real negation whose scope leaves the subject out
            s.add("not", cue=n)
            s.add("resolved", scope=n)
            if self.rng.random() < 0.5:
                s.add(self.one(["despite", "with"]))
                s.add(self.one(TREATMENTS))


#: A template: a method of :class:`Generator` writing into a sentence.
Template = Callable[[Generator, Sentence], None]

#: Template name -> (method, weight). Negated templates first, then counter-examples.
TEMPLATES: Dict[str, Tuple[Template, int]] = {
    "denial": (Generator.denial, 14),
    "no-list": (Generator.no_list, 12),
    "no-each": (Generator.no_each, 3),
    "no-initial": (Generator.no_initial, 6),
    "there-is-no": (Generator.there_is_no, 4),
    "not-verb": (Generator.not_verb, 4),
    "negative-for": (Generator.negative_for, 7),
    "no-evidence-of": (Generator.no_evidence_of, 5),
    "free-of": (Generator.free_of, 4),
    "absence-of": (Generator.absence_of, 3),
    "ruled-out": (Generator.ruled_out, 5),
    "resolved": (Generator.resolved, 5),
    "minus-ve": (Generator.minus_ve, 5),
    "without": (Generator.without, 5),
    "header": (Generator.header, 6),
    "preceding-clause": (Generator.preceding_clause, 7),
    "run-on": (Generator.run_on, 6),
    "termination": (Generator.termination, 5),
    "affirmed": (Generator.affirmed, 10),
    "affix": (Generator.affix, 8),
    "pseudo": (Generator.pseudo, 7),
}

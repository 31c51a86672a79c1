"""Generates synthetic clinical-style training sentences with negation cues and scopes.

The sentences come from templates of the phrasing of clinical notes that the biomedical
training corpora lack: denial verbs with coordinated findings, lists after "No", section
headers, run-on report lines, "negative for", "no evidence of", "free of", "ruled out",
"resolved", "-ve", "without", and counter-examples without negation (affirmed findings,
clinical words with negative-looking affixes, pseudo-negations). The annotation follows
BioScope (Vincze et al. 2008) in the CD-SCO layout of this project: whole-word cues (no
affixal cues), the scope without the cue and without the subject of an active clause (the
subject of a passive or of a negative predicate such as "absent" is in scope, as in
BioScope). README.md in this folder lists every template and convention.

The vocabulary (findings, tests, diagnoses, treatments in vocabulary.json beside this file;
anatomy and phrasing here) is written from general medical knowledge. The held-out clinical
set (data/clinical/notes.txt) is only read to check that it does not leak: no finding, test,
diagnosis or treatment string of the vocabulary equals a concept of that set, and no generated sentence equals or contains one
of its sentences; generation fails otherwise.

python data/clinical_synth/generate.py            # writes train.jsonl, prints counts
python data/clinical_synth/generate.py --check    # fails if train.jsonl is not up to date

Output: one sentence a line, ``{"id", "note", "template", "text", "negations": [{"cue":
[[start, end], ...], "scope": [[start, end], ...]}], "concepts": [{"start", "end", "text",
"negated"}]}`` with character offsets into ``text``; ``concepts`` marks the findings the
template placed, negated iff inside a scope (for checks; the reader ignores them).
"""
import argparse
import importlib.util
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, TypeVar

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "train.jsonl"
HELD_OUT = HERE.parent / "clinical" / "notes.txt"
SEED = 26
N_SENTENCES = 2000
NOTE_SIZE = (6, 12)

# --- vocabulary ------------------------------------------------------------------------------
#: The concept strings the templates draw from (vocabulary.json), one list per class below.
VOCABULARY: Dict[str, List[str]] = json.loads((HERE / "vocabulary.json").read_text(encoding="utf-8"))
#: Symptoms a patient reports or denies.
SYMPTOMS: List[str] = VOCABULARY["symptoms"]
#: Findings of the physical examination.
SIGNS: List[str] = VOCABULARY["signs"]
#: Findings of imaging and other studies.
IMAGING: List[str] = VOCABULARY["imaging"]
#: Diagnoses (excluded, resolved or present).
DIAGNOSES: List[str] = VOCABULARY["diagnoses"]
#: Laboratory tests and analytes (reported -ve, negative, positive, +ve).
TESTS: List[str] = VOCABULARY["tests"]
#: Treatments and procedures (never negated in these templates).
TREATMENTS: List[str] = VOCABULARY["treatments"]
#: Tests and studies that exclude a diagnosis (after "by" / "with").
EXCLUDING_STUDIES: List[str] = VOCABULARY["excluding_studies"]
#: Anatomical sites with a normal description: the site is examined and present (affirmed).
#: Anatomy is the closed class of every clinical text; it may equal concepts of the held-out
#: set (ANATOMY_ALLOWED).
SITE_NORMALS = [
    ("Neck", ["supple", "soft", "nontender"]), ("Abdomen", ["soft", "nondistended", "soft and nondistended"]),
    ("Lungs", ["clear bilaterally", "clear to auscultation", "with good air movement"]),
    ("Heart", ["regular rate and rhythm", "with regular rhythm"]),
    ("Skin", ["warm and dry", "intact", "warm"]), ("Extremities", ["warm", "well perfused"]),
    ("Pupils", ["equal and reactive", "round and reactive"]), ("Oropharynx", ["moist", "clear"]),
    ("Throat", ["mildly erythematous", "moist"]), ("Tympanic membranes", ["pearly", "intact"]),
    ("Conjunctivae", ["pink", "clear"]), ("Mucous membranes", ["moist", "pink"]),
    ("Back", ["straight", "symmetric"]), ("Scalp", ["atraumatic", "intact"]),
    ("Incision", ["clean and dry", "well healed"]), ("Mood", ["euthymic", "stable"]),
    ("Speech", ["fluent", "clear"]), ("Gait", ["normal", "steady", "narrow based"]),
    ("Cranial nerves", ["intact", "grossly intact"]), ("Bowel sounds", ["present", "normal"]),
    ("Chest wall", ["symmetric", "stable"]), ("Rhythm", ["regular", "sinus"]),
]
#: Section headers of notes, each with the kind of content it heads.
HEADERS = {
    "review": ["ROS", "REVIEW OF SYSTEMS", "Review of systems", "ROS"],
    "exam": ["HEENT", "NECK", "CV", "CARDIAC", "RESP", "LUNGS", "ABD", "ABDOMEN", "EXT", "NEURO",
             "SKIN", "GU", "MSK", "PSYCH", "Exam", "PE"],
    "history": ["PMH", "PAST MEDICAL HISTORY", "PSH", "FAMILY HISTORY", "SOCIAL HISTORY", "HPI"],
    "imaging": ["IMPRESSION", "FINDINGS", "CXR", "CT HEAD", "ECHO", "US ABDOMEN"],
    "meds": ["MEDICATIONS", "MEDS", "HOME MEDS", "CURRENT MEDICATIONS"],
    "allergies": ["ALLERGIES", "Allergies"],
}
MEDICATIONS: List[str] = VOCABULARY["medications"]
#: Counter-examples: clinical words whose affixes look negative but are no negation cue
#: (BioScope marks no affixal cues): the finding is present.
AFFIX_FINDINGS: List[str] = VOCABULARY["affix_findings"]
#: Normal-sounding descriptors with negative-looking affixes: the described site is affirmed
#: and the word is no cue. "nontender" is one (it describes the site: "Abdomen nontender"
#: is an examined, present abdomen; no tenderness concept is mentioned).
AFFIX_DESCRIPTORS = [("Abdomen", "nontender"), ("Abdomen", "nondistended"), ("Neck", "nontender"),
                     ("Head", "atraumatic"), ("Scalp", "atraumatic"), ("Neurologic exam", "nonfocal"),
                     ("Respirations", "nonlabored"), ("Breathing", "unlabored"), ("Calves", "nontender"),
                     ("Spine", "nontender"), ("Sinuses", "nontender"), ("Family history", "noncontributory"),
                     ("Thyroid", "nontender"), ("Exam", "unremarkable")]
ANATOMY_ALLOWED = {site.lower() for site, _ in SITE_NORMALS + AFFIX_DESCRIPTORS}
AFFIX_SITES: List[str] = VOCABULARY["affix_sites"]
SUBJECTS = ["Patient", "The patient", "Pt", "She", "He", "Mother", "Patient's wife", "Father"]
PRONOUN_SUBJECTS = ["She", "He", "Patient", "The patient"]
SEVERITY = ["", "", "", "mild ", "moderate ", "severe ", "acute ", "chronic ", "new ", "significant "]

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
    return word[:1].upper() + word[1:]


class Generator:
    """The templates, each a method that writes one sentence (all but its final full stop,
    which :meth:`sentence` adds) into ``s``, drawing its words from one seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, words: Sequence[T], k: int = 1) -> List[T]:
        """k distinct items."""
        return self.rng.sample(list(words), k)

    def one(self, words: Sequence[T], avoid: Sequence[T] = ()) -> T:
        """One item that is not in avoid."""
        return self.rng.choice([w for w in words if w not in avoid])

    def sentence(self, template: "Template") -> Sentence:
        """A sentence of the template, ended with a full stop."""
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

    # -- negated ------------------------------------------------------------------------------
    def denial(self, s: Sentence) -> None:
        """Denial verb with coordinated findings; the subject is outside the scope."""
        n = s.neg()
        form = self.rng.random()
        if form < 0.25:
            s.add(self.one(["Denies", "Denies", "Denied"]), cue=n)
        else:
            s.add(self.one(SUBJECTS))
            if form < 0.35:
                s.add(self.one(["is", "was"]))
                s.add("denying", cue=n)
            else:
                adverb = self.one(["", "", "", "also", "specifically", "otherwise"])
                if adverb:
                    s.add(adverb)
                s.add(self.one(["denies", "denies", "denied"]), cue=n)
        prefix = self.one(["", "", "", "any"])
        s.items(self.findings(self.n_items()), self.one(["or", "or", "and"]), scope=n, negated=True,
                oxford=self.rng.random() < 0.6, prefix=prefix)
        if self.rng.random() < 0.2:
            s.add(self.one(["at this time", "today", "since discharge"]), scope=n)

    def no_list(self, s: Sentence) -> None:
        """Sentence-initial "No" with a list: the scope is the whole list."""
        n = s.neg()
        s.add(self.one(["No", "No", "No", "no"]), cue=n)
        words = self.findings(self.rng.choice([2, 2, 3, 3, 4, 5, 6]))
        style = self.rng.random()
        if style < 0.35:  # "No A, B, C." without a conjunction
            for k, w in enumerate(words):
                if k:
                    s.add(",", scope=n, space=False)
                s.add(w, scope=n, concept=True)
        else:
            s.items(words, self.one(["or", "or", "and"]), scope=n, negated=True,
                    oxford=self.rng.random() < 0.5)

    def no_each(self, s: Sentence) -> None:
        """"No A, no B." : one instance per "no"."""
        words = self.findings(self.rng.choice([2, 2, 3]))
        for k, w in enumerate(words):
            if k:
                s.add(self.one([",", ";"]), space=False)
            n = s.neg()
            s.add("No" if k == 0 else "no", cue=n)
            s.add(w, scope=n, concept=True)

    def no_initial(self, s: Sentence) -> None:
        """Sentence-initial "No" without a verb, or with a passive participle (in scope)."""
        n = s.neg()
        s.add("No", cue=n)
        words = self.pick(IMAGING + SIGNS, self.rng.choice([1, 1, 1, 2]))
        adj = self.one(["", "", "", "acute ", "evidence of acute ", "significant "]).strip()
        if adj:
            s.add(adj, scope=n)
        s.items(words, "or", scope=n, negated=True)
        tail = self.rng.random()
        if tail < 0.3:
            s.add(self.one(["seen", "identified", "noted", "appreciated", "is seen", "was identified"]), scope=n)
        elif tail < 0.45:
            s.add(self.one(["on exam", "on today's exam", "bilaterally"]), scope=n)

    def there_is_no(self, s: Sentence) -> None:
        """"There is no A (in the site)." : "There is" outside the scope."""
        n = s.neg()
        s.add(self.one(["There is", "There was", "There are", "There has been", "there is"]))
        s.add("no", cue=n)
        sev = self.one(["", "", "significant", "acute", "new"])
        if sev:
            s.add(sev, scope=n)
        s.items(self.pick(IMAGING + DIAGNOSES, self.rng.choice([1, 1, 2])), "or", scope=n, negated=True)
        if self.rng.random() < 0.3:
            s.add(self.one(["on this study", "at this time", "on the current exam"]), scope=n)

    def not_verb(self, s: Sentence) -> None:
        """"not" with a verb: active subjects outside the scope, passive subjects in it."""
        n = s.neg()
        if self.rng.random() < 0.5:
            s.add(self.one(PRONOUN_SUBJECTS))
            s.add(self.one(["does", "did"]))
            s.add("not", cue=n)
            s.add(self.one(["have", "report", "endorse", "complain of", "have any"]), scope=n)
            s.items(self.findings(self.rng.choice([1, 2])), "or", scope=n, negated=True)
        else:
            finding = self.one(IMAGING + SIGNS)
            s.add(cap(finding), scope=n, concept=True)
            s.add(self.one(["is", "was"]), scope=n)
            s.add("not", cue=n)
            s.add(self.one(["seen", "identified", "present", "appreciated", "visualized", "detected"]),
                  scope=n)

    def negative_for(self, s: Sentence) -> None:
        """"(TEST) negative for A": the cue "negative", "for A" in scope, the test outside."""
        n = s.neg()
        lead = self.rng.random()
        if lead < 0.35:
            if self.rng.random() < 0.2:
                s.add("Otherwise")
            s.add("negative" if s.text else "Negative", cue=n)
        elif lead < 0.7:
            s.add(cap(self.one(TESTS)), concept=False)
            verb = self.one(["", "", "was", "is", "came back"])
            if verb:
                s.add(verb)
            s.add("negative", cue=n)
        else:
            s.add(self.one(["Workup", "Exam", "Evaluation", "Family history", "Screening", "Review"]))
            s.add(self.one(["was", "is", ""]) or "otherwise")
            s.add("negative", cue=n)
        s.add("for", scope=n)
        s.items(self.pick(DIAGNOSES + SYMPTOMS, self.n_items()), self.one(["or", "and"]), scope=n,
                negated=True, oxford=self.rng.random() < 0.5)

    def no_evidence_of(self, s: Sentence) -> None:
        """"(There is) no evidence of A": cue "no", "evidence of A" in scope (BioScope)."""
        n = s.neg()
        if self.rng.random() < 0.4:
            s.add(self.one(["There is", "There was", "Imaging shows", "Exam shows"]))
            s.add("no", cue=n)
        else:
            s.add("No", cue=n)
        s.add(self.one(["evidence of", "evidence of", "signs of", "sign of", "findings of", "suggestion of"]),
              scope=n)
        s.items(self.pick(IMAGING + DIAGNOSES, self.rng.choice([1, 1, 2])), "or", scope=n, negated=True)

    def free_of(self, s: Sentence) -> None:
        """"(SITE/Patient) free of A": cue "free", "of A" in scope, the site outside."""
        n = s.neg()
        form = self.rng.random()
        if form < 0.5:
            self.site(s)
            s.add(self.one(["", "appears", "is", "remains"]) or "otherwise")
        else:
            s.add(self.one(PRONOUN_SUBJECTS))
            s.add(self.one(["remains", "has remained", "has been", "is"]))
        s.add("free", cue=n)
        s.add("of", scope=n)
        s.items(self.pick(SIGNS + SYMPTOMS + DIAGNOSES, self.rng.choice([1, 1, 2])), "or", scope=n, negated=True)
        if self.rng.random() < 0.3:
            s.add(self.one(["since surgery", "for two years", "during this admission"]), scope=n)

    def absence_of(self, s: Sentence) -> None:
        """"absence of A": cue "absence", "of A" in scope (BioScope)."""
        n = s.neg()
        if self.rng.random() < 0.5:
            s.add("Absence", cue=n)
        else:
            s.add(self.one(["Exam notable for", "Imaging confirms", "Reassuring", "Note the"]))
            s.add("absence", cue=n)
        s.add("of", scope=n)
        s.items(self.pick(IMAGING + SIGNS, self.rng.choice([1, 2])), "or", scope=n, negated=True)

    def ruled_out(self, s: Sentence) -> None:
        """"A was ruled out (by B)": cue "ruled out", the finding and auxiliary in scope (a
        passive subject, as in BioScope), the excluding study outside (it was done)."""
        n = s.neg()
        if self.rng.random() < 0.75:
            words = self.pick(DIAGNOSES, self.rng.choice([1, 1, 2]))
            s.items([cap(words[0])] + words[1:], "and", scope=n, negated=True)
            s.add(self.one(["was", "was", "has been", "is"] if len(words) == 1 else ["were", "have been", "are"]),
                  scope=n)
            s.add("ruled", cue=n)
            s.add("out", cue=n)
        else:
            subject, aux = self.rng.choice([("We", "have"), ("Cardiology", "has"), ("The team", "has"),
                                            ("Neurology", "has")])
            s.add(subject)
            if self.rng.random() < 0.4:
                s.add(self.one([aux, "then"]))
            s.add("ruled", cue=n)
            s.add("out", cue=n)
            s.items(self.pick(DIAGNOSES, self.rng.choice([1, 2])), "and", scope=n, negated=True)
        if self.rng.random() < 0.6:
            s.add(self.one(["by", "with", "after"]))
            s.add(self.one(EXCLUDING_STUDIES))

    def resolved(self, s: Sentence) -> None:
        """"A resolved (with T)": cue "resolved", the finding before it in scope; the
        treatment or time after it is affirmed and outside."""
        n = s.neg()
        if self.rng.random() < 0.35:
            s.add(self.one(["Her", "His", "The", "Patient's"]), scope=n)
            s.add(self.one(SYMPTOMS + DIAGNOSES), scope=n, concept=True)
        else:
            s.add(cap(self.one(SYMPTOMS + DIAGNOSES)), scope=n, concept=True)
        aux = self.one(["", "", "has", "had", "subsequently", "completely"])
        if aux:
            s.add(aux, scope=n)
        s.add("resolved", cue=n)
        tail = self.rng.random()
        if tail < 0.5:
            s.add(self.one(["with", "after"]))
            s.add(self.one(TREATMENTS))
        elif tail < 0.75:
            s.add(self.one(["by day two", "overnight", "within 24 hours", "by discharge", "spontaneously"]))

    def minus_ve(self, s: Sentence) -> None:
        """"TEST -ve" / "TEST negative": the test (its result absent) in scope."""
        tests = self.pick(TESTS, self.rng.choice([1, 1, 2, 3]))
        cue_word = self.one(["-ve", "-ve", "negative", "neg"])
        for k, test in enumerate(tests):
            if k:
                s.add(self.one([",", ";"]), space=False)
            n = s.neg()
            s.add(cap(test) if k == 0 else test, scope=n, concept=True)
            if self.rng.random() < 0.3:
                s.add(":", scope=n, space=False)  # inside the span from the test to the cue
            s.add(cue_word, cue=n)

    def without(self, s: Sentence) -> None:
        """"SITE DESCR without A": the site is affirmed, only what follows "without" is negated."""
        n = s.neg()
        form = self.rng.random()
        if form < 0.6:
            normals = self.site(s)
            if self.rng.random() < 0.5:
                s.add(self.one(["is", "was"]))
            s.add(self.one(normals))
        else:
            s.add(cap(self.one(SYMPTOMS + AFFIX_FINDINGS)), concept=False)
            s.add(self.one(["present", "noted", "reported", "improving"]))
        s.add("without", cue=n)
        words = self.pick([w for w in SIGNS + SYMPTOMS if w.lower() != s.concepts[0]["text"].lower()],
                          self.rng.choice([1, 1, 2]))
        s.items(words, "or", scope=n, negated=True)

    def header(self, s: Sentence) -> None:
        """A section header before a negated list: the header is outside the scope."""
        n = s.neg()
        kind = self.rng.random()
        if kind < 0.4:
            s.add(self.one(HEADERS["review"]))
            s.add(":", space=False)
            if self.rng.random() < 0.2:
                s.add("Otherwise")
                s.add("negative", cue=n)
            else:
                s.add(self.one(["Negative", "negative", "Neg"]), cue=n)
            s.add("for", scope=n)
            s.items(self.findings(self.rng.choice([2, 3, 4, 5])), self.one(["or", "and"]), scope=n,
                    negated=True, oxford=self.rng.random() < 0.5)
        elif kind < 0.8:
            s.add(self.one(HEADERS["exam"] + HEADERS["imaging"]))
            s.add(":", space=False)
            s.add("No" if self.rng.random() < 0.7 else "no", cue=n)
            s.items(self.pick(SIGNS + IMAGING, self.rng.choice([1, 2, 3])), self.one(["or", "and"]),
                    scope=n, negated=True)
        else:
            s.add(self.one(HEADERS["history"]))
            s.add(":", space=False)
            s.add(self.one(["Denies", "Denied"]), cue=n)
            s.items(self.pick(DIAGNOSES + SYMPTOMS, self.rng.choice([1, 2, 3])), "or", scope=n, negated=True)

    def preceding_clause(self, s: Sentence) -> None:
        """"SITE DESCR, no A": the scope does not reach back over the preceding clause."""
        clauses = self.rng.choice([1, 1, 2])
        for k, (site, normals) in enumerate(self.pick(SITE_NORMALS, clauses)):
            if k:
                s.add(",", space=False)
            s.add(site, concept=False)
            s.add(self.one(normals))
        s.add(self.one([",", ",", ";"]), space=False)
        n = s.neg()
        s.add(self.one(["no", "no", "without"]), cue=n)
        s.items(self.pick(SIGNS, self.rng.choice([1, 1, 2, 3])), self.one(["or", "and"]), scope=n, negated=True)
        if self.rng.random() < 0.3:  # a later clause, affirmed again
            site, normals = self.one(SITE_NORMALS)
            s.add(",", space=False)
            s.add(site.lower(), concept=False)
            s.add(self.one(normals))

    def run_on(self, s: Sentence) -> None:
        """A run-on report line of several sections; a negation of one section does not
        reach the concepts of another."""
        sep = self.one([". ", "; ", " ", ". "])
        kinds = self.pick(list(HEADERS), self.rng.choice([2, 2, 3]))
        negated_at = self.rng.randrange(len(kinds))
        for k, kind in enumerate(kinds):
            if k and sep.strip():
                s.add(sep.strip(), space=False)
            name = self.one(HEADERS[kind])
            s.add(name)
            header = (len(s.text) - len(name), len(s.text))
            s.add(":", space=False)
            if k == negated_at:
                n = s.neg()
                form = self.rng.random()
                if kind in ("allergies", "meds", "history") and form < 0.6:
                    # a bare cue after the header negates what the header names: the header
                    # and its colon are the scope (BioScope: a scope is one span up to its cue)
                    s.add(self.one(["None", "none", "None"]), cue=n)
                    s.mark_scope(n, header[0], header[1], concept=True).mark_scope(n, header[1], header[1] + 1)
                elif kind == "allergies":
                    s.add("No", cue=n)
                    s.add(self.one(["known allergies", "known drug allergies", "drug allergies"]), scope=n)
                elif kind == "meds":
                    s.add(self.one(["No", "no"]), cue=n)
                    s.add(self.one(["current medications", "home medications", "regular medications"]), scope=n)
                elif kind == "review" and form < 0.5:
                    s.add("Negative", cue=n)
                    s.mark_scope(n, header[0], header[1], concept=True).mark_scope(n, header[1], header[1] + 1)
                elif kind == "review":
                    s.add("Negative", cue=n)
                    s.add("for", scope=n)
                    s.items(self.findings(self.rng.choice([1, 2, 3])), "or", scope=n, negated=True)
                else:
                    s.add("No" if self.rng.random() < 0.6 else "no", cue=n)
                    pool = DIAGNOSES if kind == "history" else SIGNS + SYMPTOMS + IMAGING
                    s.items(self.pick(pool, self.rng.choice([1, 2])), "or", scope=n, negated=True)
            elif kind in ("allergies", "meds"):
                s.items(self.pick(MEDICATIONS, self.rng.choice([1, 2, 3])), "and", negated=False)
            else:
                pool = DIAGNOSES if kind == "history" else SIGNS + SYMPTOMS + IMAGING
                words = self.pick(pool, self.rng.choice([1, 2]))
                s.items([cap(words[0])] + words[1:], "and", negated=False)
                if kind != "history" and self.rng.random() < 0.5:
                    s.add(self.one(["present", "noted", "seen", "reported"]))

    def termination(self, s: Sentence) -> None:
        """"No A but B": the scope stops at the termination; B is affirmed."""
        n = s.neg()
        if self.rng.random() < 0.6:
            s.add("No", cue=n)
        else:
            s.add(self.one(PRONOUN_SUBJECTS))
            s.add("denies", cue=n)
        words = self.findings(self.rng.choice([1, 2]))
        s.items(words, "or", scope=n, negated=True)
        word = self.one(["but", "but", ", but", "; however,", ", although", ", though", "; however"])
        s.add(word, space=not word.startswith((",", ";")))
        s.add(self.one(["has", "reports", "endorses", "notes", "complains of", "there is"]))
        s.add(self.one(SYMPTOMS + SIGNS, avoid=words), concept=False)

    # -- counter-examples ----------------------------------------------------------------------
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


def generate(n: int = N_SENTENCES, seed: int = SEED) -> List[Dict[str, Any]]:
    """The records: n sentences from the weighted templates, grouped into notes of 6 to 12
    sentences; no duplicate texts.

    n (int): the number of sentences.
    seed (int): the random seed.
    RETURNS (List[Dict[str, Any]]): the records in order.
    """
    gen = Generator(seed)
    names = list(TEMPLATES)
    weights = [TEMPLATES[name][1] for name in names]
    records: List[Dict[str, Any]] = []
    seen: Set[str] = set()
    note, in_note, note_size = 0, 0, 0
    while len(records) < n:
        name = gen.rng.choices(names, weights)[0]
        record = gen.sentence(TEMPLATES[name][0]).record()
        if record["text"] in seen:
            continue
        seen.add(record["text"])
        if in_note == note_size:
            note, in_note, note_size = note + 1, 0, gen.rng.randint(*NOTE_SIZE)
        in_note += 1
        records.append({"id": f"synth{note:04d}-{in_note:02d}", "note": f"synth{note:04d}", "template": name,
                        **record})
    return records


# --- leak checks against the held-out set ---------------------------------------------------
def held_out() -> Tuple[List[str], Set[str]]:
    """The sentences and the (lower-cased) concept strings of data/clinical/notes.txt, parsed
    by that set's own build script."""
    spec = importlib.util.spec_from_file_location("clinical_build", HELD_OUT.parent / "build.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {HELD_OUT.parent / 'build.py'}")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    records = build.parse_notes(HELD_OUT.read_text(encoding="utf-8"), HELD_OUT.name)
    return [r["text"] for r in records], {c["text"].lower() for r in records for c in r["concepts"]}


def vocabulary() -> Set[str]:
    """Every finding, test, diagnosis, treatment and medication string of the templates."""
    words = (SYMPTOMS + SIGNS + IMAGING + DIAGNOSES + TESTS + TREATMENTS + EXCLUDING_STUDIES + MEDICATIONS
             + AFFIX_FINDINGS + AFFIX_SITES)
    return {w.lower() for w in words}


def leaks(records: Sequence[Dict[str, Any]]) -> List[str]:
    """What the records share with the held-out set: vocabulary strings equal to one of its
    concepts (other than anatomy), generated sentences equal to or containing one of its
    sentences (compared case-insensitively with whitespace collapsed).

    records (Sequence[Dict[str, Any]]): the generated records.
    RETURNS (List[str]): one message per leak (empty: none).
    """
    sentences, concepts = held_out()
    out = [f"vocabulary string {w!r} is a concept of {HELD_OUT.name}"
           for w in sorted(vocabulary() & concepts)]
    out += [f"concept {c['text']!r} of {r['id']} is a concept of {HELD_OUT.name}"
            for r in records for c in r["concepts"]
            if c["text"].lower() in concepts and c["text"].lower() not in ANATOMY_ALLOWED]
    norm = [" ".join(s.lower().split()) for s in sentences]
    for r in records:
        text = " ".join(r["text"].lower().split())
        out += [f"{r['id']} {r['text']!r} contains the held-out sentence {s!r}" for s in norm if s in text]
    return out


def to_jsonl(records: Sequence[Dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def counts(records: Sequence[Dict[str, Any]]) -> List[str]:
    """A Markdown table: sentences, negation instances and concepts per template."""
    rows: Dict[str, Counter] = {}
    for r in records:
        c = rows.setdefault(r["template"], Counter())
        c["sentences"] += 1
        c["negations"] += len(r["negations"])
        c["negated"] += sum(x["negated"] for x in r["concepts"])
        c["affirmed"] += sum(not x["negated"] for x in r["concepts"])
    total: Counter = sum(rows.values(), Counter())
    keys = ("sentences", "negations", "negated", "affirmed")
    lines = ["| template | sentences | negations | negated concepts | affirmed concepts |",
             "|---|---|---|---|---|"]
    for name, c in [(t, rows[t]) for t in TEMPLATES if t in rows] + [("**total**", total)]:
        lines.append(f"| {name} | " + " | ".join(str(c[k]) for k in keys) + " |")
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if train.jsonl is not up to date")
    parser.add_argument("-n", type=int, default=N_SENTENCES, help=f"sentences (default {N_SENTENCES})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"random seed (default {SEED})")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    records = generate(args.n, args.seed)
    problems = leaks(records)
    if problems:
        print("\n".join(problems[:20]), file=sys.stderr)
        print(f"{len(problems)} overlap(s) with the held-out set {HELD_OUT}; nothing written", file=sys.stderr)
        return 1
    content = to_jsonl(records)
    if args.check:
        if not args.output.exists() or args.output.read_text(encoding="utf-8") != content:
            print(f"{args.output} is not the output of {Path(__file__).name}; run it", file=sys.stderr)
            return 1
    else:
        tmp = args.output.with_suffix(".jsonl.tmp")
        tmp.write_text(content, encoding="utf-8")
        tmp.replace(args.output)
    print("\n".join(counts(records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The negated templates of the synthetic clinical sentences (``generate.py``; README.md in
this folder lists every template and its annotation): each a method that writes one
sentence with its negation instances, in the BioScope convention.
"""
from synth_lexicon import (AFFIX_FINDINGS, DIAGNOSES, EXCLUDING_STUDIES, HEADERS, IMAGING, MEDICATIONS,
                           PRONOUN_SUBJECTS, SIGNS, SITE_NORMALS, SUBJECTS, SYMPTOMS, TESTS, TREATMENTS)
from synth_sentence import GeneratorBase, Sentence, cap


class NegatedTemplates(GeneratorBase):
    """The templates with a negation, in the order of README.md."""

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

"""The texts of the model cards of ``scripts/model_card.py``, one per domain: the training
data and its licence as its provenance states it, the annotation convention, the intended
text and the sources. The scores, speed and failure modes come from the results files.
"""
from typing import Any, Dict

#: The card of the general English model; the fast model shares its data, licence and sources.
DOMAINS_GENERAL: Dict[str, Any] = {
    "lang": "en",
    "title": "English negation resolution for any text (CD-SCO + BioScope + SFU Review)",
    "data": "The train splits of ConanDoyle-neg (CD-SCO, Morante & Daelemans 2012), BioScope "
            "(abstracts and clinical radiology reports, Vincze et al. 2008) and the SFU Review Corpus "
            "(Konstantinova et al. 2012), each doc marked with its corpus's annotation convention; "
            "model selection on the dev splits together.",
    "license": "CC BY-NC-SA 3.0",
    "license_note": "The most restrictive of its data: CD-SCO is cited as CC BY-NC-SA 3.0 "
                    "(non-commercial, share-alike); BioScope is for research use; the SFU "
                    "Review Corpus is GPL-3.0-or-later.",
    "convention": "One transformer (the first 3 of all-MiniLM-L6-v2's 6 layers, trained on the gold "
                  "labels and on the distributions of a 6-layer teacher trained on the same data, "
                  "Hinton et al. 2015), one cue and one scope component per convention. By default "
                  "it annotates in the {default} convention (chosen on the dev splits among the "
                  "conventions applications want: whole-word cues, scopes without the subject of "
                  "the clause, no events). `config={{\"convention\": NAME}}` of the `negation` "
                  "component picks another: `\"cdsco\"` (ConanDoyle-neg: subjects in scope, affixal "
                  "cues, events), `\"bioscope\"`, `\"sfu\"`.",
    "use": "The default for application users whose text is none of the domains of the other "
           "packages, or a mix: `token._.negated` and `ent._.negated` mean 'is what is denied'.",
    "sources": [{"name": "ConanDoyle-neg (*SEM 2012 CD-SCO)", "author": "Morante & Daelemans (2012)"},
                {"name": "BioScope (abstracts, clinical reports)", "author": "Vincze et al. (2008)"},
                {"name": "SFU Review Corpus (negation)", "author": "Konstantinova et al. (2012)"}],
}

#: Per domain: the training data, its licence as its provenance states it, the annotation
#: convention, the intended text and the failure modes that follow from the convention.
DOMAINS: Dict[str, Dict[str, Any]] = {
    "cdsco": {
        "lang": "en",
        "title": "English negation resolution for fiction (ConanDoyle-neg / *SEM 2012)",
        "data": "ConanDoyle-neg (CD-SCO), the *SEM 2012 shared task corpus: Sherlock Holmes "
                "stories by Arthur Conan Doyle, official training split (Morante & Daelemans 2012).",
        "license": "CC BY-NC-SA 3.0",
        "license_note": "The corpus release carries no licence file; its task page is cited as "
                        "CC BY-NC-SA 3.0 (non-commercial, share-alike). The stories are public domain.",
        "convention": "ConanDoyle-neg: the scope includes the subject of the negated clause and "
                      "parts of words (affixal cues such as *un* in *unhappy*, with *happy* in "
                      "scope); negated events are marked; the cue is not part of its scope.",
        "use": "Literary and general narrative English in the *SEM 2012 convention; research on "
               "negation scope. For 'is this entity negated?' in other text pick the domain model "
               "that fits it: a subject in scope counts as negated here.",
        "sources": [{"name": "ConanDoyle-neg (*SEM 2012 CD-SCO)", "author": "Morante & Daelemans (2012)"}],
    },
    "bioscope": {
        "lang": "en",
        "title": "English negation resolution for biomedical abstracts (BioScope)",
        "data": "BioScope, abstracts subcorpus (Szarvas et al. 2008; Vincze et al. 2008): "
                "MEDLINE abstracts from the GENIA corpus, this project's document-level "
                "train split (spacy_negation/corpora/data/splits/bioscope_abstracts.json).",
        "license": "research use",
        "license_note": "No licence file ships with BioScope; its authors state it is freely "
                        "available for academic and research purposes (a third-party dataset "
                        "card asserts CC BY 2.0).",
        "convention": "BioScope, converted to the CD-SCO layout: cues are whole words (no "
                      "affixal cues), each scope is one contiguous span joined to its cue and "
                      "leaves out the subject of the clause, no events.",
        "use": "Biomedical and scientific English (abstracts, findings). The closest packaged "
               "model for clinical text, which needs the clinical cue list for words such as "
               "'denies' that BioScope does not annotate.",
        "sources": [{"name": "BioScope (abstracts)", "author": "Vincze et al. (2008)"}],
    },
    "sfu": {
        "lang": "en",
        "title": "English negation resolution for reviews (SFU Review Corpus)",
        "data": "SFU Review Corpus with negation and speculation annotation (Konstantinova et "
                "al. 2012): 400 reviews of books, cars, computers, cookware, hotels, movies, "
                "music and phones; this project's document-level train split (spacy_negation/corpora/data/splits/sfu.json).",
        "license": "GPL-3.0-or-later",
        "license_note": "The corpus README licenses it under the GNU GPL v3 or later.",
        "convention": "SFU Review, converted to the CD-SCO layout: cues are whole words (no "
                      "affixal cues), the scope does not include the subject, no events.",
        "use": "Product and service reviews, opinions, user-generated English.",
        "sources": [{"name": "SFU Review Corpus (negation)", "author": "Konstantinova et al. (2012)"}],
    },
    "neges": {
        "lang": "es",
        "title": "Spanish negation cues and scopes for reviews (SFU ReviewSP-NEG)",
        "data": "SFU ReviewSP-NEG (Jiménez-Zafra et al. 2018): Spanish reviews of eight domains, "
                "the NEGES 2018 training split.",
        "license": "CC BY-NC-SA 4.0",
        "license_note": "The corpus files carry no licence; the owners' (SINAI, Universidad de "
                        "Jaén) public release declares CC BY-NC-SA 4.0.",
        "convention": "SFU ReviewSP-NEG as in NEGES 2018 task 2: cues (single and multiword), "
                      "their scopes and negated events.",
        "use": "Spanish reviews and opinions; `nlp.add_pipe(\"negation\", config={\"model\": "
               "\"es_negation_sfu\"})` on a Spanish pipeline (`spacy.blank(\"es\")`).",
        "sources": [{"name": "SFU ReviewSP-NEG", "author": "Jiménez-Zafra et al. (2018)"}],
    },
    "norec": {
        "lang": "nb",
        "title": "Norwegian (Bokmål) negation cues and scopes for reviews (NoReC_neg)",
        "data": "NoReC_neg (Mæhlum et al. 2021): sentences from Norwegian reviews of the Norwegian "
                "Review Corpus in nine thematic categories, the corpus's own training split; model "
                "selection on its dev split.",
        "license": "CC BY-NC 4.0",
        "license_note": "NoReC_neg is CC BY-NC 4.0 (inherited from NoReC); its README states that "
                        "models trained on NoReC do not contain the original data and may be used "
                        "commercially.",
        "convention": "NoReC_neg's, adapted from ConanDoyle-neg: affixal cues (*u-* in "
                      "'uinteressant'), multiword and discontinuous cues, subjects in scope, "
                      "discontinuous scopes, no negated events. A CNN (spaCy's HashEmbedCNN trained "
                      "from scratch on the corpus; no Norwegian transformer installs offline here).",
        "use": "Norwegian (Bokmål) text, reviews above all: the default of `nlp.add_pipe(\"negation\")` "
               "in a Norwegian pipeline (`spacy.blank(\"nb\")`).",
        "sources": [{"name": "NoReC_neg", "author": "Mæhlum et al. (2021)"}],
        "failure_modes": ["Cue words its training data never marks as cues are not found; scopes "
                          "across long sentences are the weakest part (see the scores)."],
    },
    "nubes": {
        "lang": "es",
        "title": "Spanish negation and uncertainty for clinical records (NUBes)",
        "data": "NUBes (Lima Lopez et al. 2020): sentences of anonymised Spanish health records, "
                "negation and uncertainty cues with their scopes; the project's split by file "
                "(spacy_negation/corpora/data/splits/nubes.json: test = SAMPLE-001, double-annotated "
                "with a referee; train and dev from the other nine samples); model selection on dev.",
        "license": "CC BY-SA 3.0 ES",
        "license_note": "NUBes is Creative Commons Attribution-ShareAlike 3.0 Spain (its LICENSE).",
        "convention": "NUBes': syntactic, lexical and morphological negation cues and uncertainty "
                      "cues (read as speculation: `doc._.speculations`, `ent._.uncertain`), scopes "
                      "linked from each cue, no negated events. A CNN (spaCy's HashEmbedCNN trained "
                      "from scratch on the corpus; no Spanish transformer installs offline here).",
        "use": "Spanish clinical text: the default of `nlp.add_pipe(\"negation\")` in a Spanish "
               "pipeline (`spacy.blank(\"es\")`); reviews: `config={\"model\": \"es_negation_sfu\"}`.",
        "sources": [{"name": "NUBes", "author": "Lima Lopez et al. (2020)"}],
        "failure_modes": ["Trained on hospital records of one provider: other clinical writing "
                          "(abbreviations, telegraphic notes of other services) may lose accuracy."],
    },
    "clinical": {
        "lang": "en",
        "title": "English negation resolution for clinical notes (BioScope abstracts and radiology reports + synthetic clinical sentences)",
        "data": "BioScope (Vincze et al. 2008), abstracts and clinical (radiology report) subcorpora, "
                "this project's document-level train splits (the clinical reports' words restored "
                "from the CMC 2007 challenge texts), together with the project's synthetic clinical-style sentences "
                "(data/clinical_synth: denial verbs with coordinated findings, lists after 'No', "
                "'negative for', 'no evidence of', 'free of', 'ruled out', 'resolved', '-ve', "
                "'without', section headers, run-on report lines and counter-examples without "
                "negation), generated from templates; model selection on BioScope clinical dev.",
        "license": "research use",
        "license_note": "BioScope: no licence file ships with it; its authors state it is freely "
                        "available for academic and research purposes. The synthetic sentences "
                        "are the project's own.",
        "convention": "BioScope, converted to the CD-SCO layout: cues are whole words (no "
                      "affixal cues: 'insufficiency', 'unremarkable', 'nontender' are no cues), "
                      "scopes leave out the subject of an active clause, include the finding "
                      "before a following cue ('[Sepsis was] ruled out', '[Rash] resolved'), and "
                      "stop at a preceding clause ('Neck supple, no [JVD]').",
        "use": "Clinical notes: histories, review of systems, examination, imaging and lab lines. "
               "The model finds its cues itself, with the sentence prefilter; on BioScope clinical dev "
               "the shipped clinical cue list `en_clinical` in place of its own cues lowered F1 on "
               "'is this word negated?' by 13.6 and 13.8 points (seeds 0 and 1), so the package does not set it "
               "(`nlp.add_pipe(\"negation\", config={\"model\": ..., \"cue_patterns\": "
               "\"en_clinical\"})` sets it).",
        "sources": [{"name": "BioScope (abstracts and clinical)", "author": "Vincze et al. (2008)"},
                    {"name": "Synthetic clinical sentences (data/clinical_synth)", "author": "spacy-negation"}],
    },
    "general": DOMAINS_GENERAL,
    "general_spec": {
        **{key: DOMAINS_GENERAL[key] for key in ("lang", "license", "license_note")},
        "title": "English negation and speculation resolution for any text (CD-SCO + BioScope + SFU Review)",
        "data": DOMAINS_GENERAL["data"][:-len("model selection on the dev splits together.")]
                + "the negation and the speculation (hedge) annotation of BioScope and SFU Review; model "
                  "selection on the dev splits together, negation and speculation NIS_tok F1 half each.",
        "convention": DOMAINS_GENERAL["convention"] + " Its BioScope and SFU Review components also "
                      "resolve speculation cues ('possible', 'might', 'suggest', 'or' between "
                      "alternatives, 'rule out') and their scopes as `doc._.speculations` "
                      "(`token._.uncertain`, `ent._.uncertain`); `config={{\"speculation\": False}}` "
                      "skips them. The CD-SCO convention has no speculation.",
        "use": "Applications that want 'is this uncertain?' beside 'is this negated?' from one model; "
               "en_negation_general, the default, resolves negation only.",
        "sources": DOMAINS_GENERAL["sources"][:1]
                   + [{"name": "BioScope (abstracts, clinical reports; negation and speculation)",
                       "author": "Vincze et al. (2008)"},
                      {"name": "SFU Review Corpus (negation and speculation)", "author": "Konstantinova et al. (2012)"}],
    },
    "fast": {
        **{key: DOMAINS_GENERAL[key] for key in ("lang", "license", "license_note", "sources")},
        "title": "Fast English negation resolution on CPU (CD-SCO + BioScope + SFU Review, CNN)",
        "data": "As en_negation_general: t" + DOMAINS_GENERAL["data"][1:],
        "convention": "One small CNN (spaCy's HashEmbedCNN, trained from scratch), one cue and one "
                      "scope component per convention, as en_negation_general. By default it "
                      "annotates in the {default} convention; `config={{\"convention\": NAME}}` of the "
                      "`negation` component picks another (`\"cdsco\"`, `\"bioscope\"`, `\"sfu\"`). "
                      "Its cue components have the sentence prefilter on: only sentences with a "
                      "candidate cue (a word seen as a cue in training, or a learned negation affix "
                      "where the convention has affixal cues) are annotated, and the `negation` "
                      "component sends only those to the model.",
        "use": "Large volumes of text on CPU where speed matters more than the last points of "
               "accuracy; en_negation_general is the more accurate default.",
    },
}

"""The words of the synthetic clinical sentences (``generate.py``): the concept strings of
vocabulary.json beside this file, one list per class, and the phrasing of the templates
(anatomy with its normal descriptions, section headers, subjects, severities), written from
general medical knowledge.
"""
import json
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent

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

"""Knowledge distillation (Hinton et al. 2015): a trained negation pipeline, the teacher,
gives its label distributions as soft targets beside the gold labels, and a student learns
from both. ``spacy-negation.DistilledCorpus.v1`` attaches the targets to a training
corpus's examples; the negation components learn from them where an example carries them
(:func:`spacy_negation.distill.loss.distilled_loss`). Components that learn speculation
beside negation (``kinds = ["negation", "speculation"]``) learn the teacher's speculation
distributions too, from a teacher component of the same kinds."""
from .corpus import DistilledCorpus, create_distilled_corpus
from .loss import distilled_loss
from .targets import TeacherTargets, attach_teacher_targets, teacher_targets

__all__ = ["DistilledCorpus", "TeacherTargets", "attach_teacher_targets", "create_distilled_corpus",
           "distilled_loss", "teacher_targets"]

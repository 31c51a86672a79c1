"""The fixtures of the data-model tests: a blank English pipeline with the extensions, and
the kind of instance (negation, speculation) a storage or survival test runs for."""
import pytest
import spacy

from spacy_negation import register_extensions

from util import KIND_NAMES, KindAccess


@pytest.fixture
def nlp() -> spacy.language.Language:
    register_extensions()
    return spacy.blank("en")


@pytest.fixture(params=KIND_NAMES)
def kind(request: pytest.FixtureRequest) -> KindAccess:
    """The kind of instance a storage or survival test runs for."""
    return KindAccess(request.param)

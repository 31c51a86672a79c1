"""Reading negation corpora into spaCy ``Doc`` objects with gold negations.

One module per format, each registering its reader in :data:`.registry.formats` (the
``--format`` of ``convert``):

- :mod:`.starsem` and :mod:`.starsem_docs`: the *SEM 2012 CD-SCO CoNLL format
  (``starsem``; Morante and Blanco 2012), read and written.
- :mod:`.bioscope`: BioScope abstracts and full papers (``bioscope``; Vincze et al. 2008).
- :mod:`.bioscope_clinical`: BioScope's masked radiology reports with the words of the CMC
  2007 challenge files (``bioscope_clinical``; Vincze et al. 2008, Pestian et al. 2007).
- :mod:`.sfu`: SFU Review Corpus, English, negation layer (``sfu``; Konstantinova et al. 2012).
- :mod:`.neges2018` and :mod:`.neges2019`: SFU ReviewSP-NEG (Spanish) as NEGES 2018
  task-2 CoNLL and as NEGES 2019 XML (Jiménez-Zafra et al. 2018).
- :mod:`.norec`: NoReC_neg (Norwegian Bokmål JSON with character offsets; ``norec_neg``;
  Mæhlum et al. 2021).
- :mod:`.nubes`: NUBes and IULA+ (Spanish clinical brat standoff; ``nubes``; Lima Lopez et
  al. 2020), with its split by file.

Shared by the readers: :mod:`.records` (sentence records), :mod:`.docs` (records to docs),
:mod:`.spaces` (space guessing), :mod:`.blocks` (the column-block layout of *SEM and
NEGES 2018), :mod:`.xmltree` (XML with line numbers), :mod:`.files` (input discovery),
:mod:`.chars` (character offsets onto spaCy's tokens), :mod:`.brat` (brat standoff files);
:mod:`.docbin` reads ``.spacy`` files, :mod:`.splits` the committed document-level splits
(package data), :mod:`.stats` counts negations. Importing this package imports nothing
else: the format modules register their readers when they are imported.
"""

"""Tiny randomly initialised masked language models built offline (a WordPiece BERT and a
byte-level BPE RoBERTa) for the tests of the negation probe; torch and transformers are
imported when a model is built."""
import re
from pathlib import Path
from typing import List

from spacy_negation.probe import templates as tpl


def probe_words() -> List[str]:
    """The lower-cased words of the probe's templates, names, professions and activities."""
    words = set()
    for t in tpl.build_templates():
        words |= {w.lower() for w in re.findall(r"[A-Za-z]+", t.text)}
    for g in "mf":
        words |= {n.lower() for n in tpl.names(g)}
    for p in tpl.professions():
        words |= set(p.lower().split())
    return sorted(words | set(tpl.activities()))


def save_bert(out: Path, head: bool = True, tie: bool = True) -> Path:
    """A tiny random WordPiece BERT over the probe's words, with its masked-LM head (or an
    encoder without it: head=False), saved to ``out``."""
    import torch
    import transformers

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", "'"] + probe_words()
    out.mkdir(parents=True, exist_ok=True)
    (out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    transformers.BertTokenizerFast(str(out / "vocab.txt")).save_pretrained(out)
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=32,
                                     tie_word_embeddings=tie)
    model = transformers.BertForMaskedLM(config) if head else transformers.BertModel(config)
    model.save_pretrained(out)
    return out


def save_roberta(out: Path) -> Path:
    """A tiny random byte-level BPE RoBERTa with its masked-LM head, saved to ``out``."""
    import torch
    import transformers
    from tokenizers import ByteLevelBPETokenizer

    out.mkdir(parents=True, exist_ok=True)
    texts = [t.text for t in tpl.build_templates()] + probe_words()
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(texts, vocab_size=400, min_frequency=1,
                            special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"])
    bpe.save_model(str(out))
    tok = transformers.RobertaTokenizerFast(str(out / "vocab.json"), str(out / "merges.txt"))
    tok.save_pretrained(out)
    torch.manual_seed(0)
    config = transformers.RobertaConfig(vocab_size=tok.vocab_size, hidden_size=16, num_hidden_layers=2,
                                        num_attention_heads=2, intermediate_size=32,
                                        max_position_embeddings=130, pad_token_id=1)
    transformers.RobertaForMaskedLM(config).save_pretrained(out)
    return out

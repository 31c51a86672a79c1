"""A masked language model read from a local Hugging Face folder, for the negation probe
(Gubelmann & Handschuh 2022): batched top-k predictions at the mask token.

Only local files are read (``local_files_only=True``): nothing is downloaded.
"""
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Sequence, Union

from ..errors import Errors, Warnings

if TYPE_CHECKING:  # pragma: no cover
    import torch

#: The prefixes of the masked-LM head's parameters, by architecture attribute.
_HEAD_ATTRS = ("cls", "lm_head")


class MaskedLM:
    """A masked language model and its tokenizer (BERT-style ``[MASK]`` or RoBERTa-style
    ``<mask>``), with batched top-k predictions at the mask.

    path (Path): the model folder.
    tied_head (bool): the folder holds an encoder without masked-LM head weights (e.g. a
        sentence-embedding BERT); build the head from the tied word embeddings with an
        identity transform (logits = LayerNorm(h) . E^T) instead of stopping with E602.
        Only for BERT-style models; warns W600.
    batch_size (int): sentences per forward pass.
    """

    def __init__(self, path: Union[str, Path], *, tied_head: bool = False, batch_size: int = 64) -> None:
        import torch
        from transformers import AutoModelForMaskedLM, AutoTokenizer
        from transformers.utils import logging as hf_logging

        self.path = Path(path)
        if not self.path.is_dir():
            raise FileNotFoundError(Errors.E600.format(path=path))
        self.batch_size = batch_size
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
            verbosity = hf_logging.get_verbosity()
            hf_logging.set_verbosity_error()  # the missing head keys are checked below
            try:
                self.model, info = AutoModelForMaskedLM.from_pretrained(
                    str(self.path), local_files_only=True, output_loading_info=True)
            finally:
                hf_logging.set_verbosity(verbosity)
        except (OSError, ValueError, KeyError) as err:
            raise ValueError(Errors.E601.format(path=path, reason=err)) from err
        if self.tokenizer.mask_token is None or self.tokenizer.mask_token_id is None:
            raise ValueError(Errors.E603.format(path=path))
        missing = [k for k in info.get("missing_keys", []) if k.split(".")[0] in _HEAD_ATTRS]
        self.tied_head = False
        if missing:
            if not tied_head:
                raise ValueError(Errors.E602.format(path=path, keys=", ".join(sorted(missing)[:4])))
            self._tie_head(missing)
        elif tied_head:
            raise ValueError(Errors.E604.format(path=path, reason="the folder has a trained head"))
        self.model.eval()
        self._torch = torch
        self.mask_token = self.tokenizer.mask_token
        self.special_ids = sorted(set(self.tokenizer.all_special_ids))

    def _tie_head(self, missing: List[str]) -> None:
        import torch

        head = getattr(self.model, "cls", None)
        predictions = getattr(head, "predictions", None)
        if predictions is None or not hasattr(predictions, "transform"):
            raise ValueError(Errors.E604.format(path=self.path,
                                                reason=f"no BERT-style head ({type(self.model).__name__})"))
        emb = self.model.get_input_embeddings().weight
        if predictions.decoder.weight.data_ptr() != emb.data_ptr():
            raise ValueError(Errors.E604.format(path=self.path, reason="the decoder is not tied to the word embeddings"))
        with torch.no_grad():
            dense = predictions.transform.dense
            dense.weight.copy_(torch.eye(dense.weight.shape[0], dense.weight.shape[1]))
            dense.bias.zero_()
            predictions.transform.LayerNorm.weight.fill_(1.0)
            predictions.transform.LayerNorm.bias.zero_()
            predictions.bias.zero_()
        predictions.transform.transform_act_fn = torch.nn.Identity()
        self.tied_head = True
        warnings.warn(Warnings.W600.format(path=self.path, n=len(missing)))

    @property
    def n_predictable(self) -> int:
        """How many vocabulary entries the model can predict (its output vocabulary less
        the special tokens, which are never predicted)."""
        out = self.model.get_output_embeddings()
        size = int(out.weight.shape[0]) if out is not None else int(self.model.config.vocab_size)
        return size - sum(1 for i in self.special_ids if i < size)

    @property
    def name(self) -> str:
        return self.path.name

    def decode(self, token_id: int) -> str:
        """The text of one vocabulary entry, without surrounding whitespace."""
        return self.tokenizer.decode([int(token_id)]).strip()

    def topk(self, sentences: Sequence[str], k: int) -> List[List[int]]:
        """The ``k`` most probable token ids at the (single) mask token of each sentence,
        best first; special tokens ([CLS], <s>, [MASK], ...) are never predicted.

        sentences (Sequence[str]): texts with exactly one mask token each.
        k (int): how many ids to return per sentence.
        RETURNS (List[List[int]]): one ranked list per sentence.
        RAISES (ValueError): k beyond the tokens the model can predict (E957).
        """
        if k > self.n_predictable:
            raise ValueError(Errors.E957.format(k=k, n=self.n_predictable, path=self.path))
        out: List[List[int]] = []
        for start in range(0, len(sentences), self.batch_size):
            out.extend(self._topk_batch(sentences[start:start + self.batch_size], k))
        return out

    def _topk_batch(self, sentences: Sequence[str], k: int) -> List[List[int]]:
        torch = self._torch
        enc = self.tokenizer(list(sentences), return_tensors="pt", padding=True)
        is_mask = enc["input_ids"] == self.tokenizer.mask_token_id
        counts = is_mask.sum(dim=1).tolist()
        for text, n in zip(sentences, counts):
            if n != 1:
                raise ValueError(Errors.E605.format(n=n, mask=self.mask_token, text=text))
        with torch.no_grad():
            logits = self._mask_logits(enc, is_mask)
            logits[:, self.special_ids] = float("-inf")
            return torch.topk(logits, k, dim=1).indices.tolist()

    def _mask_logits(self, enc: Any, is_mask: "torch.Tensor") -> "torch.Tensor":
        """Logits at the mask positions only (the head on one position per sentence, not
        on the whole batch: the vocabulary is large)."""
        head = next((getattr(self.model, a) for a in _HEAD_ATTRS if hasattr(self.model, a)), None)
        if head is None:  # another architecture: the whole model, then the mask rows
            return self.model(**enc).logits[is_mask]
        hidden = self.model.base_model(**enc).last_hidden_state
        return head(hidden[is_mask])


def rank_tokens(ranked: Sequence[int], rank: int, n: int) -> List[int]:
    """The ``n`` token ids at probability ranks ``rank``, ``rank + 1``, ... (0 = the most
    probable), as the paper takes ACT1-ACT3 (Gubelmann & Handschuh 2022, section 4.3).

    ranked (Sequence[int]): token ids, most probable first.
    rank (int): the first rank.
    n (int): how many.
    RETURNS (List[int]): the ids.
    """
    if rank < 0 or rank + n > len(ranked):
        raise ValueError(Errors.E606.format(rank=rank, n=n, k=len(ranked)))
    return list(ranked[rank:rank + n])


def load(path: Union[str, Path], tied_head: bool = False, batch_size: int = 64) -> MaskedLM:
    """Load a masked language model from a local folder (see :class:`MaskedLM`)."""
    return MaskedLM(path, tied_head=tied_head, batch_size=batch_size)


def is_word(text: str) -> bool:
    """Whether a predicted token is an alphabetic word (not punctuation, a number or a
    subword piece such as ``##ing``): the grammaticality check the paper applies by
    inspection to xlnet-large-cased's predictions."""
    return text.isalpha()


__all__ = ["MaskedLM", "load", "rank_tokens", "is_word"]

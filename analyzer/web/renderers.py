"""The API's JSON renderer: DRF's `JSONRenderer` output, byte for byte, written by orjson.

Encoding an analysis with the standard library's `json` costs about as much as a Django request
without it; orjson writes the same bytes in a fraction of that, except in a few cases that this
renderer hands back to DRF's own encoder:

- a pretty-printed response (`Accept: application/json; indent=4`);
- anything orjson refuses: integers beyond 64 bits, dict keys that are not strings, types that
  DRF's encoder does not know either (it then raises the same error as before);
- a float below 1e-4 in magnitude (other than 0 and those below 1e-9): Python prints `1e-05` and
  `3e-06`, orjson `0.00001` and `3e-6`. orjson writes every such float with four zeros after the
  point or with a one-digit exponent before a delimiter, so an output holding either anywhere (in
  a string too: checking is cheaper than knowing) is encoded again by DRF.

Strings are written as by `json.dumps(..., ensure_ascii=False)` (UTF-8, the same escapes), and
U+2028 and U+2029 escaped as DRF does. orjson writes NaN and infinities as `null` where DRF's
strict encoder refuses them; the analyzer never produces them (`analyzer.readers.cells`).
"""

from __future__ import annotations

import re

import orjson
from rest_framework import renderers

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
# Where orjson and `json` print a float differently (1e-05 against 0.00001, 3e-06 against 3e-6).
_SHORT_EXPONENT = re.compile(rb"e-\d[,\]}]")  # searched alone: a pattern that starts with a letter is fast


class Joined:
    """A JSON object of `head`'s members followed by those of `tail`, an object that this renderer
    wrote compactly with no key of `head`: written by joining the two texts, so that an analysis
    kept as JSON is sent without being decoded and written again (a sixth of a save's Python)."""

    def __init__(self, head: dict, tail: bytes) -> None:
        self.head = head
        self.tail = tail

    def merged(self) -> dict:
        return {**self.head, **orjson.loads(self.tail)}


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer (compact, UTF-8, strict), faster."""

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        compact = self.compact and not self.ensure_ascii
        compact = compact and self.get_indent(accepted_media_type, renderer_context or {}) is None
        if isinstance(data, Joined):
            if not compact:
                return super().render(data.merged(), accepted_media_type, renderer_context)
            head = self.render(data.head, accepted_media_type, renderer_context)
            return head[:-1] + (b"," if len(head) > 2 and len(data.tail) > 2 else b"") + data.tail[1:]
        if data is None or not compact:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=self.encoder_class().default, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError included: let DRF's encoder answer, or raise
            return super().render(data, accepted_media_type, renderer_context)
        if b"0.0000" in out or _SHORT_EXPONENT.search(out):
            return super().render(data, accepted_media_type, renderer_context)
        if b"\xe2\x80" in out:
            out = out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
        return out

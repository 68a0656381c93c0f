"""Templates without their own indentation: each run of whitespace in a template's text is one space.

Browsers collapse those runs anyway (Fichas renders no <pre> or <textarea>), so the page reads the
same while every push and page is smaller. A space is kept where a line break was: between two
inline elements (a label and its button) it is what the reader sees.
Done once, when a template is compiled; the values rendered into it are left as they are.
"""

from __future__ import annotations

import re

from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

WHITESPACE = re.compile(r"\s+")


class Compact(Extension):
    """Folds the whitespace of template text (the `data` tokens) at compile time."""

    def filter_stream(self, stream: TokenStream):
        for token in stream:
            if token.type == "data":
                yield Token(token.lineno, "data", WHITESPACE.sub(" ", token.value))
            else:
                yield token

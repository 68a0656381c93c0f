"""Templates without their own indentation: whitespace in a template's text is one space, or none
between two tags on different lines.

Browsers collapse those runs anyway (Fichas renders no <pre> or <textarea>), so the page reads the
same while every push and page is smaller: about a third of a push was the templates' indentation.
Done once, when a template is compiled; the values rendered into it are left as they are.
"""

from __future__ import annotations

import re

from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

WHITESPACE = re.compile(r"\s+")
BETWEEN_TAGS = re.compile(r">\s*\n\s*<")  # a line break between two tags: the indentation of markup


class Compact(Extension):
    """Folds the whitespace of template text (the `data` tokens) at compile time."""

    def filter_stream(self, stream: TokenStream):
        for token in stream:
            if token.type == "data":
                yield Token(token.lineno, "data", WHITESPACE.sub(" ", BETWEEN_TAGS.sub("><", token.value)))
            else:
                yield token

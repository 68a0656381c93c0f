"""What htmx's websocket extension does with a push, in Python: each top-level element swapped out of band.

Enough of htmx for the pages Fichas renders (well-formed, ids unique): `true`/`outerHTML` replace
the element of the same id; `innerHTML`, `afterbegin`, `beforeend`, `beforebegin` and `afterend`
(with a `:#id` target) put the element's children there; `delete` removes the element.
"""

from __future__ import annotations

import re

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
START_TAG = re.compile(r"<([a-zA-Z][\w-]*)\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>")
ATTRIBUTE = re.compile(r"""([\w:-]+)(?:=(?:"([^"]*)"|'([^']*)'))?""")


class Element:
    """An element's place in a text: where it starts, where its content starts and ends, where it ends."""

    def __init__(self, text: str, start: int):
        tag = START_TAG.match(text, start)
        assert tag, f"no element at {start}: {text[start:start + 60]!r}"
        self.tag, self.start, self.inner_start = tag.group(1).lower(), start, tag.end()
        self.attributes = {m.group(1): m.group(2) if m.group(2) is not None else (m.group(3) or "")
                           for m in ATTRIBUTE.finditer(tag.group(0)[len(self.tag) + 1:-1])}
        if self.tag in VOID or tag.group(0).endswith("/>"):
            self.inner_end = self.end = tag.end()
            return
        depth, at = 1, tag.end()
        nested = re.compile(rf"<{self.tag}\b|</{self.tag}\s*>", re.I)
        while depth:
            found = nested.search(text, at)
            assert found, f"<{self.tag}> at {start} is never closed"
            depth += -1 if found.group(0).startswith("</") else 1
            at = found.end()
        self.inner_end, self.end = found.start(), found.end()


def find(page: str, element_id: str) -> Element | None:
    """The element of the page with this id."""
    found = re.search(rf'<[a-zA-Z][\w-]*\b[^>]*?\sid="{re.escape(element_id)}"', page)
    return Element(page, found.start()) if found else None


def top_level(message: str) -> list[tuple[Element, str]]:
    """The elements at the top of a message, each with its text."""
    elements, at = [], 0
    while (start := message.find("<", at)) >= 0:
        element = Element(message, start)
        elements.append((element, message[element.start:element.end]))
        at = element.end
    return elements


def apply(page: str, message: str) -> str:
    """The page after a push: every top-level element of `message` swapped in, in order."""
    for element, text in top_level(message):
        how = element.attributes.get("hx-swap-oob") or "true"
        style, _, selector = how.partition(":")
        target_id = selector.lstrip("#") if selector else element.attributes.get("id")
        target = find(page, target_id) if target_id else None
        if target is None:
            continue  # htmx, too, swaps nothing where no element matches
        inner = text[element.inner_start - element.start:element.inner_end - element.start]
        if style in ("true", "outerHTML"):
            text = re.sub(r'\shx-swap-oob="[^"]*"', "", text, count=1)
            page = page[:target.start] + text + page[target.end:]
        elif style == "delete":
            page = page[:target.start] + page[target.end:]
        elif style == "innerHTML":
            page = page[:target.inner_start] + inner + page[target.inner_end:]
        else:
            at = {"beforebegin": target.start, "afterbegin": target.inner_start,
                  "beforeend": target.inner_end, "afterend": target.end}[style]
            page = page[:at] + inner + page[at:]
    return page


def stamp_table(page: str) -> str:
    """What static/fichas.js does after each push: #version's numbers onto #table, the latest tile marked."""
    version, table = find(page, "version"), find(page, "table")
    if version is None or table is None:
        return page
    start_tag = page[table.start:table.inner_start]
    for name, value in (("version", version.attributes["value"]), ("round", version.attributes["data-round"]),
                        ("moves", version.attributes["data-moves"]),
                        ("seq", version.attributes["data-seq"]), ("phase", version.attributes["data-phase"])):
        start_tag = re.sub(rf' data-{name}="[^"]*"', f' data-{name}="{value}"', start_tag, count=1)
    page = page[:table.start] + start_tag + page[table.inner_start:]
    return marked(page, version.attributes)


def classes_of(page: str, pattern: str, change) -> str:
    """The page with the classes of every start tag matching `pattern` changed by change(tag, classes)."""
    def edit(found: re.Match) -> str:
        tag = found.group(0)
        classes = re.search(r' class="([^"]*)"', tag)
        return f'{tag[:classes.start(1)]}{change(tag, classes.group(1).split())}{tag[classes.end(1):]}'
    return re.sub(pattern, edit, page)


def marked(page: str, stamp: dict) -> str:
    """The latest tile (.last, .fresh), as the stamp says (whose turn it is, the page's CSS reads from it)."""
    def tile(tag: str, classes: list[str]) -> str:
        latest = re.search(r' id="([^"]*)"', tag).group(1) == stamp.get("data-last")
        drop = () if latest and stamp.get("data-fresh") else ("fresh",) if latest else ("last", "fresh")
        return " ".join(c for c in classes if c not in drop)

    return classes_of(page, r'<span class="domino[^"]*\blast\b[^"]*"[^>]*>', tile)


def my_turn(page: str) -> str:
    """What static/fichas.js does after each push to #me: .my-turn on it while #prompt says data-mine."""
    prompt = find(page, "prompt")
    if prompt is None:
        return page
    mine = "data-mine" in prompt.attributes

    def me(tag: str, classes: list[str]) -> str:
        return " ".join([c for c in classes if c != "my-turn"] + (["my-turn"] if mine else []))

    return classes_of(page, r'<section id="me"[^>]*>', me)


def fold(messages, page: str = '<section id="table"></section><section id="me"></section>') -> str:
    """What a page shows of #table and #me after these pushes, swapped in order."""
    for message in messages:
        page = stamp_table(my_turn(apply(page, message)))
    return page

"""Templates compiled once per language, with their catalogued words already translated in them.

A push renders `#table` for every language read at the table. With gettext called at render time,
each of its words would cost a Jinja call, a catalog lookup and a Markup (several times the render
of the untranslated page). Here a call with a literal message, `_("Pass")` or `_("%(name)s to play",
name=who)`, becomes a constant when the template is compiled for a language; only the values are
formatted at render time, as gettext's newstyle calls format them (escaped into the translation).
`ngettext` becomes the language's forms and a call of its plural rule. Messages that are not
literals, and Python's own `_` (web/templating/languages.py), stay calls to the catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flask.templating import Environment
from jinja2 import nodes
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from web.templating.cache import forget_if_templates_changed

# The calls folded, and where their message arguments are: (context, message) for pgettext.
FOLDED = {"_": 0, "gettext": 0, "pgettext": 1}
# Each language's rule choosing a plural form; "" is English's, for messages left in the source text.
PLURAL_RULES: dict[str, Callable[[int], int]] = {"": lambda n: int(n != 1)}


NAMED_ONLY = re.compile(r"(?:[^%]|%%|%\([A-Za-z_]\w*\)s)*")  # "%(name)s" placeholders only (and "%%")


def fill(message: str, **values) -> Markup:
    """A translated message formatted with its values, each escaped (the filter `fill`)."""
    return Markup(message) % values


def plural_index(rule: str, n: int) -> int:
    """Which of a message's plural forms `n` takes, by a language's rule (templates call this)."""
    return PLURAL_RULES[rule](n)


def literal(call: nodes.Call, messages: list[nodes.Expr]) -> bool:
    """Whether a gettext call's messages are written in the template (and nothing is unpacked into it)."""
    return not (call.dyn_args or call.dyn_kwargs) and all(
        isinstance(m, nodes.Const) and isinstance(m.value, str) for m in messages)


def all_named(message: str) -> bool:
    """Whether a message's placeholders are all "%(name)s" (what `fill` formats)."""
    return NAMED_ONLY.fullmatch(message) is not None


def formatted(message: nodes.Expr, keywords: list[nodes.Keyword], named: bool, line: int) -> nodes.Expr:
    """`message` (a translation, plain if `named`, else marked safe) formatted with the values.

    Named placeholders only: fill(message, **values), a filter, which the compiled template calls
    directly (a function would be called through the context). Otherwise Markup % values, which
    escapes each value, as newstyle gettext does under autoescape.
    """
    if named:
        return nodes.Filter(message, "fill", [], keywords, None, None, lineno=line)
    pairs = [nodes.Pair(nodes.Const(k.key), k.value, lineno=line) for k in keywords]
    return nodes.Mod(message, nodes.Dict(pairs, lineno=line), lineno=line)


class Translating(NodeTransformer):
    """Replaces gettext calls on literal messages by their translation in one catalog."""

    def __init__(self, translate: Callable[..., str], plural: Callable[[str, str], tuple[str, tuple]]):
        self.translate, self.plural = translate, plural  # a message's translation; its plural forms

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        node = self.generic_visit(node)
        if isinstance(node.node, nodes.Name) and node.node.name == "ngettext":
            return self.plural_forms(node)
        if not (isinstance(node.node, nodes.Name) and node.node.name in FOLDED):
            return node
        arity = FOLDED[node.node.name] + 1
        if len(node.args) != arity or not literal(node, node.args):
            return node
        text = self.translate(*(arg.value for arg in node.args))
        if not node.kwargs:
            try:  # newstyle gettext formats even without values ("%%" is "%")
                return nodes.MarkSafeIfAutoescape(nodes.Const(text % {}), lineno=node.lineno)
            except (KeyError, ValueError, TypeError):
                return node  # a broken translation fails at render time, as it would have
        keywords = [nodes.Keyword(k.key, k.value, lineno=node.lineno) for k in node.kwargs]
        named = all_named(text)
        message = nodes.Const(text, lineno=node.lineno)
        if not named:
            message = nodes.MarkSafeIfAutoescape(message, lineno=node.lineno)
        return formatted(message, keywords, named, node.lineno)

    def plural_forms(self, node: nodes.Call) -> nodes.Node:
        """ngettext(singular, plural, n, **values): the form n takes, formatted with num=n and the values."""
        if len(node.args) != 3 or not literal(node, node.args[:2]):
            return node
        rule, forms = self.plural(node.args[0].value, node.args[1].value)
        line, n = node.lineno, node.args[2]
        named = all(all_named(f) for f in forms)
        consts = [nodes.Const(f) for f in forms]
        if not named:  # formatted by Markup's %, which escapes the values into the safe form
            consts = [nodes.MarkSafeIfAutoescape(c, lineno=line) for c in consts]
        choices = nodes.Tuple(consts, "load", lineno=line)
        rule_of = nodes.Name("plural_index", "load", lineno=line)
        index = nodes.Call(rule_of, [nodes.Const(rule), n], [], None, None, lineno=line)
        keywords = [nodes.Keyword(k.key, k.value, lineno=line) for k in node.kwargs]
        if all(k.key != "num" for k in node.kwargs):
            keywords.append(nodes.Keyword("num", n, lineno=line))  # newstyle ngettext's num
        return formatted(nodes.Getitem(choices, index, "load", lineno=line), keywords, named, line)


class WordingEnvironment(Environment):
    """Flask's Jinja environment, handing each language its own compiled templates."""

    language: str | None = None  # None: the environment Flask holds, which hands out the others
    current_language: Callable[[], str] = staticmethod(lambda: "en")  # set by web.templating.languages
    catalog_of: Callable = staticmethod(lambda app, lang: None)  # set by web.templating.languages

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.filters["fill"] = fill  # shared by the languages' overlays

    def in_language(self, lang: str) -> WordingEnvironment:
        """The environment whose templates speak `lang` (made on first use, then kept)."""
        root = self if self.language is None else self.linked_to
        languages = root.__dict__.setdefault("languages", {})
        if lang not in languages:
            # Its own cache: a template compiled for one language never serves another.
            env = root.overlay(cache_size=400)
            env.language = lang
            env.catalog = root.catalog_of(root.app, lang)
            languages[lang] = env
        return languages[lang]

    def template(self, name: str):
        """A template of this language, by name (what web/templating/frames.py `rendered` renders)."""
        return self.get_template(name)

    def get_template(self, name, parent=None, globals=None):
        """Templates asked of Flask's environment come from the current viewer's language; while templates
        reload from their files (debug), kept pieces are forgotten once one changed (templating/cache.py)."""
        if self.language is None:
            return self.in_language(self.current_language()).get_template(name, parent, globals)
        if self.auto_reload:
            forget_if_templates_changed(self.app)
        return super().get_template(name, parent, globals)

    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        if self.language is None or self.catalog is None:
            return tree
        catalog = self.catalog

        def translate(*args: str) -> str:
            return catalog.upgettext(*args) if len(args) == 2 else catalog.ugettext(args[0])

        def plural(singular: str, plural: str) -> tuple[str, tuple]:
            """A message's plural forms here and the rule choosing them (English's if untranslated)."""
            held = getattr(catalog, "_catalog", {})
            if (singular, 0) not in held:
                return "", (catalog.ugettext(singular), catalog.ugettext(plural))
            PLURAL_RULES[self.language] = catalog.plural
            count = 0
            while (singular, count) in held:
                count += 1
            return self.language, tuple(held[singular, i] for i in range(count))

        return Translating(translate, plural).visit(tree)

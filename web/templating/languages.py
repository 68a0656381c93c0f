"""Languages: which one a viewer reads (cookie `lang`, else Accept-Language), and its words in templates."""

from __future__ import annotations

import threading

from flask import Flask, current_app, has_request_context, request
from flask_babel import Babel, force_locale, get_translations

from game.variants import VARIANTS
from web.templating.cache import Cache
from web.templating.translated import WordingEnvironment, plural_index

LANGUAGES = ("en", "es", "da")  # English is the source language; es and da live in translations/
NAMES = {"en": "English", "es": "Español", "da": "Dansk"}  # each in its own language
COOKIE = "lang"
COOKIE_DAYS = 365

# The catalog templates read from, set for a request or around a push's render (a thread-local is
# greenlet-local under gevent). Flask-Babel's own lookup per string is slow, and a push has dozens.
_speaking = threading.local()


def viewer_language() -> str:
    """The language of this request's viewer: the `lang` cookie, else the browser's best match, else en."""
    if not has_request_context():
        return LANGUAGES[0]
    offered = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(COOKIE)
    if chosen in offered:
        return chosen
    return request.accept_languages.best_match(offered, offered[0])


def catalog_of(app: Flask, lang: str):
    """The translations of `lang`, loaded once per app."""
    loaded = app.extensions.setdefault("fichas_catalogs", {})
    if lang not in loaded:
        with app.app_context(), force_locale(lang):
            loaded[lang] = get_translations()
    return loaded[lang]


class speaking:
    """Templates rendered inside read `lang` (a push rendered outside the viewer's request).

    A class, not a generator: a push enters it once per language and #me rendered, and the
    thread-local (gevent's, under gevent) is read and set once each way.
    """

    __slots__ = ("before", "now")

    def __init__(self, app: Flask, lang: str):
        self.now = (catalog_of(app, lang), lang)

    def __enter__(self) -> None:
        self.before = getattr(_speaking, "now", NOT_SPEAKING)
        _speaking.now = self.now

    def __exit__(self, *_exc) -> None:
        _speaking.now = self.before


NOT_SPEAKING = (None, None)  # (catalog, language) outside any request or push render


def current_language() -> str:
    """The language set for this request or render; the source language otherwise."""
    return getattr(_speaking, "now", NOT_SPEAKING)[1] or LANGUAGES[0]


def current_catalog():
    """The catalog set for this request or render; Flask-Babel's own choice otherwise."""
    return getattr(_speaking, "now", NOT_SPEAKING)[0] or get_translations()


def speak_the_viewer_s_language():
    """Each request speaks its viewer's language (registered by web/http/languages.py)."""
    speak_from_now(current_app._get_current_object(), viewer_language())


def speak_from_now(app: Flask, lang: str) -> None:
    """This request speaks `lang` from now on (a page's socket switched language: its refusals too)."""
    _speaking.now = (catalog_of(app, lang), lang)


def stop_speaking(_error=None):
    """Outside a request, templates speak no one's language."""
    _speaking.now = NOT_SPEAKING


def _(message: str) -> str:
    """gettext in the current catalog (pybabel extracts these calls)."""
    return current_catalog().ugettext(message)


def game_title(name: str) -> str:
    """A game's name as its players say it: its variant's title (game/variants.py), in the catalogs' words."""
    variant = VARIANTS.get(name)
    return _(variant.title) if variant else name


def game_description(name: str) -> str:
    """A game's line on the create form: its variant's description, in the catalogs' words."""
    variant = VARIANTS.get(name)
    return _(variant.description) if variant else ""


def game_titles() -> list[str]:
    """Every game's name, in the order game/variants.py lists them."""
    return [game_title(name) for name in VARIANTS]


def in_words(choices: list[str]) -> str:
    """"A, B or C", in the current language."""
    if len(choices) == 1:
        return choices[0]
    return _("%(some)s or %(last)s") % {"some": ", ".join(choices[:-1]), "last": choices[-1]}


def pgettext(context: str, message: str) -> str:
    """pgettext in the current catalog (pybabel extracts these calls)."""
    return current_catalog().upgettext(context, message)


TILE_NAMES = Cache(1_000)  # (language, high, low, where it fits) -> its name in words


def tile_name(tile: dict) -> str:
    """A tile of a hand in words for screen readers ("six–four, fits left"), in the current language.

    Named in Python and kept: a hand's tiles are named at every push of its #me, in few ways.
    """
    ends = tile["ends"]
    if len(ends) == 2 and ends[0] != ends[1]:
        fits = "both"
    else:
        fits = ends[0] if ends and ends[0] in ("left", "right") else ("opens" if ends else "")
    key = (current_language(), tile["high"], tile["low"], fits)
    name = TILE_NAMES.get(key)
    return name if name is not None else TILE_NAMES.keep(key, named(tile, fits))


def named(tile: dict, fits: str) -> str:
    """A tile in words (see tile_name)."""
    halves = (pgettext("a tile's half", "blank"), pgettext("a tile's half", "one"),
              pgettext("a tile's half", "two"), pgettext("a tile's half", "three"),
              pgettext("a tile's half", "four"), pgettext("a tile's half", "five"),
              pgettext("a tile's half", "six"))
    words = _("%(high)s–%(low)s") % {"high": halves[tile["high"]], "low": halves[tile["low"]]}
    sentences = {"both": _("%(tile)s, fits both ends"), "left": _("%(tile)s, fits left"),
                 "right": _("%(tile)s, fits right"), "opens": _("%(tile)s, opens the round")}
    return sentences[fits] % {"tile": words} if fits else words


def team_label(side: int) -> str:
    """A team's badge: Team A, Team B."""
    return _("Team %(letter)s") % {"letter": "AB"[side]}


def init_i18n(app: Flask) -> None:
    """Flask-Babel with our selector; templates get the languages for the switch and a fast catalog."""
    if "jinja_env" in app.__dict__:
        raise RuntimeError("init_i18n must come before any template is loaded")
    # Each language gets its own compiled templates, their words translated once (templating/translated.py).
    app.jinja_environment = WordingEnvironment
    WordingEnvironment.current_language = staticmethod(current_language)
    WordingEnvironment.catalog_of = staticmethod(catalog_of)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", LANGUAGES[0])
    app.config.setdefault("LANGUAGES", LANGUAGES)  # a test may add one (a pseudo-locale)
    Babel(app, locale_selector=viewer_language)
    app.jinja_env.install_gettext_callables(  # as Flask-Babel's, reading the catalog set above
        _,
        lambda s, p, n: current_catalog().ungettext(s, p, n),
        newstyle=True,
        pgettext=pgettext,
        npgettext=lambda c, s, p, n: current_catalog().unpgettext(c, s, p, n))
    app.jinja_env.globals.update(languages=NAMES, viewer_language=viewer_language, game_title=game_title,
                                 plural_index=plural_index, tile_name=tile_name,
                                 game_description=game_description, game_titles=game_titles,
                                 in_words=in_words, team_label=team_label)

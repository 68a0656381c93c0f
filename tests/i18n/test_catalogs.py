"""The catalogs: complete, current, compiled, and every word a player reads goes through them."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages import frontend
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from helpers.screens import leftover, screens, texts
from web.templating.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def catalog(lang: str) -> Catalog:
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def source_messages() -> set:
    """Every message the code and templates ask for, as `pybabel extract` finds it (babel.cfg)."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = frontend.parse_mapping_cfg(f)
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(ROOT, method_map, options_map):
        found.add((message, context))
    return found


def key(message) -> tuple:
    return (tuple(message.id) if isinstance(message.id, list | tuple) else message.id, message.context)


def forms(message) -> tuple:
    return tuple(message.string) if isinstance(message.string, list | tuple) else (message.string,)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    cat = catalog(lang)
    assert not cat.fuzzy
    for message in cat:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"{lang}: {message.id!r} is not translated"
        assert "fuzzy" not in message.flags, f"{lang}: {message.id!r} is fuzzy"
        wanted = set(PLACEHOLDER.findall(message.id[-1] if isinstance(message.id, tuple) else message.id))
        for form in forms:  # every name and number of the English is kept (a plural's `num` may be implied)
            got = set(PLACEHOLDER.findall(form))
            assert got | {"%(num)s"} >= wanted | {"%(num)s"}, (lang, message.id, form)


def test_no_danish_sentence_glues_a_genitive_onto_a_name():
    """Danish writes "Anas plads" but "Lars' plads": "%(name)ss" gave "Larss" (say it without a genitive)."""
    glued = [message.id for message in catalog("da") if message.id and message.string
             and re.search(r"%\(\w+\)ss\b", " ".join(forms(message)))]
    assert glued == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogs_hold_exactly_what_the_sources_ask_for(lang):
    """`pybabel extract` then `update` would change nothing: no message missing, none left over."""
    held = {key(m) for m in catalog(lang) if m.id}
    assert held == source_messages()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogs_are_current(lang):
    """The committed .mo is what `pybabel compile` makes of the .po (the app reads the .mo)."""
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.mo", "rb") as f:
        compiled = read_mo(f)
    assert {key(m): forms(m) for m in compiled if m.id} == {key(m): forms(m) for m in catalog(lang) if m.id}


# -- a pseudo-locale: every catalogued string transformed, so an untransformed word escaped the catalogs

PSEUDO = "eo"  # a locale Babel knows and Fichas does not offer
SKIP = re.compile(r"(%\(\w+\)s|<[^>]*>|&\w+;)")  # placeholders, markup and entities stay as they are


def pseudo(text: str) -> str:
    """Latin letters turned into their full-width forms ("Pass" -> "Ｐａｓｓ"), all else kept."""
    parts = SKIP.split(text)
    def wide(match):
        return chr(ord(match[0]) + 0xFEE0)

    return "".join(part if SKIP.fullmatch(part) else re.sub(r"[A-Za-z]", wide, part) for part in parts)


@pytest.fixture
def pseudo_app(make_app, tmp_path):
    cat = Catalog(locale="en")  # English plural rules: two forms
    for message in catalog("es"):
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            cat.add(message.id, tuple(pseudo(i) for i in ids) if len(ids) > 1 else pseudo(ids[0]),
                    context=message.context)
    folder = tmp_path / "pseudo" / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as f:
        write_mo(f, cat)
    return make_app(LANGUAGES=(*LANGUAGES, PSEUDO),
                    BABEL_TRANSLATION_DIRECTORIES=f"translations;{tmp_path / 'pseudo'}")


def test_a_pseudo_locale_render_of_every_screen_leaves_no_word_untransformed(pseudo_app):
    shown = screens(pseudo_app, PSEUDO)
    for name, html in shown.items():
        assert f'<html lang="{PSEUDO}">' in html or "<html" not in html, name
        for text in texts(html):
            assert not re.search(r"[A-Za-z]", leftover(text)), f"{name}: {text!r} escaped the catalogs"


ENGLISH = ("the", "your", "turn", "round", "tile", "tiles", "pass", "passed", "draw", "host", "waiting",
           "score", "seat", "player", "players", "match", "table", "hand", "boneyard", "line", "you",
           "with", "when", "nothing", "fits", "placed", "blocked", "copy", "sound", "rules", "game", "open")
OWN_NAMES = re.compile(r"Block Domino|Draw Domino")  # the Danish seed's own names for the games


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_spanish_or_danish_render_of_every_screen_has_no_english_left(app, lang):
    shown = screens(app, lang)
    words = re.compile(r"\b(?:" + "|".join(ENGLISH) + r")\b", re.IGNORECASE)
    for name, html in shown.items():
        assert f'<html lang="{lang}">' in html or "<html" not in html, name
        for text in texts(html):
            found = words.findall(OWN_NAMES.sub("", leftover(text)))
            assert not found, f"{lang}, {name}: {text!r} has {found}"


def test_the_pseudo_transformation_is_what_it_claims():
    assert pseudo('Pass <b>%(left)s</b> &amp; go') == 'Ｐａｓｓ <b>%(left)s</b> &amp; ｇｏ'
    buffer = io.BytesIO()
    write_mo(buffer, Catalog(locale="en"))
    assert buffer.getvalue()

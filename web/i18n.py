"""Languages: which one a viewer reads (cookie `lang`, else Accept-Language), and the switch."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, has_request_context, redirect, request
from flask_babel import Babel

LANGUAGES = ("en", "es", "da")  # English is the source language; es and da live in translations/
NAMES = {"en": "English", "es": "Español", "da": "Dansk"}  # each in its own language
COOKIE = "lang"
COOKIE_DAYS = 365

bp = Blueprint("lang", __name__)


def viewer_language() -> str:
    """The language of this request's viewer: the `lang` cookie, else the browser's best match, else en."""
    if not has_request_context():
        return LANGUAGES[0]
    offered = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(COOKIE)
    if chosen in offered:
        return chosen
    return request.accept_languages.best_match(offered, offered[0])


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember a language in a cookie and go back to the page it was chosen on."""
    back = request.args.get("next", "/")
    parts = urlsplit(back)
    if not back.startswith("/") or back.startswith("//") or "\\" in back or parts.scheme or parts.netloc:
        back = "/"  # never a redirect off this site
    response = redirect(back, 303)
    if code in current_app.config["LANGUAGES"]:
        response.set_cookie(COOKIE, code, max_age=COOKIE_DAYS * 86400, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    return response


def init_i18n(app: Flask) -> None:
    """Flask-Babel with our selector; templates get the languages for the switch."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", LANGUAGES[0])
    app.config.setdefault("LANGUAGES", LANGUAGES)  # a test may add one (a pseudo-locale)
    Babel(app, locale_selector=viewer_language)
    app.jinja_env.globals.update(languages=NAMES, viewer_language=viewer_language)
    app.register_blueprint(bp)

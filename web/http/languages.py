"""The language switch: /lang/<code> remembers a language in a cookie; each request speaks its viewer's."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from web.templating.languages import COOKIE, COOKIE_DAYS, speak_the_viewer_s_language, stop_speaking

bp = Blueprint("lang", __name__)
bp.before_app_request(speak_the_viewer_s_language)
bp.teardown_app_request(stop_speaking)


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember a language in a cookie and go back to the page it was chosen on."""
    back = request.args.get("next", "/")
    parts = urlsplit(back)
    if not back.startswith("/") or back.startswith("//") or "\\" in back or parts.scheme or parts.netloc:
        back = "/"  # never a redirect off this site
    elif not answers_get(parts.path):  # a form's answer (POST /tables with its errors): no page to go back to
        back = "/"
    response = redirect(back, 303)
    if code in current_app.config["LANGUAGES"]:
        response.set_cookie(COOKIE, code, max_age=COOKIE_DAYS * 86400, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    return response


def answers_get(path: str) -> bool:
    """Whether a path of this site can be opened (a page not found says so itself, in the new language)."""
    try:
        current_app.url_map.bind("localhost").match(path, method="GET")
    except MethodNotAllowed:
        return False
    except HTTPException:  # not found, or a redirect to the same page with a slash
        pass
    return True

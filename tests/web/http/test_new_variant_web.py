"""A new variant is one class: tests/engine/test_new_variant.py's throwaway Sixes, registered in
game/variants.py's VARIANTS alone, is offered, created, refused and played through the web layer too."""

from engine.test_new_variant import registered  # noqa: F401 (a fixture: Sixes and Double Block exist)

from helpers.pages import db_rows, flash_text, hand_of, page, seat_panels

SIXES = {"name": "Ana", "variant": "sixes", "seats": "4", "target": "100"}


def test_a_throwaway_variant_is_offered_by_the_create_form_in_its_own_words(app, new_browser):
    home = page(new_browser(), "/")
    assert 'value="sixes"' in home and "Sixes — 4 players in two teams, six tiles each" in home
    assert 'value="double-block"' in home and "Double Block — 2 to 4, a domino scores double" in home


def test_a_throwaway_variant_is_created_with_the_create_form_and_played_on_its_page(app, new_browser):
    host = new_browser()
    response = host.post("/tables", SIXES)
    assert response.status_code == 303
    url = response.headers["Location"]
    assert db_rows(app, "SELECT variant, seats, target FROM tables") == [("sixes", 4, 100)]
    html = page(host, url)
    assert "Sixes table" in html and "Sixes · to 100" in html
    assert sorted(seat_panels(html)) == [0, 1, 2, 3]
    for name in ("Bea", "Carl", "Dan"):
        assert new_browser().post(f"{url}/join", {"name": name}).status_code == 204
    html = page(host, url)
    assert len(hand_of(html)) == 6  # its own deal: six tiles each
    assert "Team A" in html and "Team B" in html  # a team variant, as Partnership


def test_a_throwaway_variant_refuses_its_seats_in_its_own_words(app, new_browser):
    response = new_browser().post("/tables", {**SIXES, "seats": "3"})
    assert response.status_code == 400
    assert "Sixes is played by 4 players." in flash_text(response.get_data(as_text=True))
    assert db_rows(app, "SELECT COUNT(*) FROM tables") == [(0,)]

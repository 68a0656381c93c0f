"""Draws the app's icons (the home screen's domino) as PNG from the SVG below; run it after changing it.

    pip install resvg-py && python deploy/icons.py

The files it writes are committed: the server only serves them. `maskable`: the tile inside the safe
zone (the middle 80 %) on a full-bleed felt, which a phone may cut to any shape.
"""

from pathlib import Path

import resvg_py

HERE = Path(__file__).resolve().parents[1] / "static" / "icons"
TILE = ('<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="#fbf8ef" stroke="#1d1d1b"'
        ' stroke-width="{s}"/>'
        '<path d="M{x1} {mid}h{line}" stroke="#1d1d1b" stroke-width="{s}"/><g fill="#1d1d1b">{pips}</g>')


def domino(size: float, scale: float, background: str | None) -> str:
    """A 6-4 tile standing upright, `scale` of the icon's height, on `background` (None: transparent)."""
    h = size * scale
    w = h / 2
    x, y = (size - w) / 2, (size - h) / 2
    s, r, pip = h / 40, h / 14, h / 22
    mid = y + h / 2
    cell = w / 4
    six = [(x + cell * c, y + h / 8 + (h / 2 - h / 4) / 2 * row) for c in (1, 3) for row in range(3)]
    four = [(x + cell * c, mid + h / 8 + h / 4 * row) for c in (1, 3) for row in range(2)]
    pips = "".join(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{pip:.1f}"/>' for cx, cy in six + four)
    ground = f'<rect width="{size}" height="{size}" fill="{background}"/>' if background else ""
    body = TILE.format(x=f"{x:.1f}", y=f"{y:.1f}", w=f"{w:.1f}", h=f"{h:.1f}", r=f"{r:.1f}", s=f"{s:.1f}",
                       x1=f"{x + w / 8:.1f}", mid=f"{mid:.1f}", line=f"{w * 3 / 4:.1f}", pips=pips)
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">{ground}{body}</svg>'


def main() -> None:
    felt = "#1f6b45"
    icons = {"icon-192.png": (192, .86, felt), "icon-512.png": (512, .86, felt),
             "maskable-512.png": (512, .62, felt), "apple-touch-icon.png": (180, .8, felt)}
    for name, (size, scale, background) in icons.items():
        png = resvg_py.svg_to_bytes(svg_string=domino(size, scale, background), width=size, height=size)
        (HERE / name).write_bytes(bytes(png))


if __name__ == "__main__":
    main()

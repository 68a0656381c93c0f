"""Reading a QR code back as a phone's camera would: the served SVG drawn to pixels, then decoded."""

from __future__ import annotations

import io

import resvg_py
import zxingcpp
from PIL import Image


def decoded(svg: bytes, size: int = 400) -> list[str]:
    """The texts of the QR codes an SVG shows, drawn at `size` pixels square (resvg, then zxing-cpp)."""
    return decoded_png(bytes(resvg_py.svg_to_bytes(svg_string=svg.decode(), width=size, height=size)))


def decoded_png(png: bytes) -> list[str]:
    """The texts of the QR codes a picture shows (a screenshot)."""
    image = Image.open(io.BytesIO(png)).convert("L")
    return [code.text for code in zxingcpp.read_barcodes(image)]

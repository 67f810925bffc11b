"""Deterministic PNG and WAV encoders (standard library only) for generated assets.

Images are drawn row by row from a few solid shapes (a rectangle, an ellipse inscribed in the
image) filled with one colour or a vertical gradient between two colours; pixels outside the
shape are fully transparent. The same arguments always give the same bytes.
"""

from __future__ import annotations

import io
import math
import re
import struct
import wave
import zlib

__all__ = ["RGBA", "draw_rows", "encode_png", "encode_wav", "parse_color", "tone_samples"]

RGBA = tuple[int, int, int, int]
_HEX = re.compile(r"^#?([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$")
_TRANSPARENT = bytes(4)


def parse_color(color: str) -> RGBA:
    """'#rrggbb' or '#rrggbbaa' as an (r, g, b, a) tuple."""
    match = _HEX.match(color.strip())
    if not match:
        raise ValueError(f"not a colour: {color!r} (expected #rrggbb or #rrggbbaa)")
    rgb = bytes.fromhex(match.group(1))
    alpha = int(match.group(2), 16) if match.group(2) else 255
    return rgb[0], rgb[1], rgb[2], alpha


def _row_color(top: RGBA, bottom: RGBA | None, row: int, height: int) -> bytes:
    if bottom is None or height < 2:
        return bytes(top)
    t = row / (height - 1)
    return bytes(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))


def _span(shape: str, row: int, width: int, height: int) -> tuple[int, int]:
    """The columns [start, end) of `row` covered by the shape."""
    if shape == "rect":
        return 0, width
    # an ellipse inscribed in the image, sampled at pixel centres
    rx, ry = width / 2, height / 2
    dy = (row + 0.5 - ry) / ry
    if abs(dy) >= 1:
        return 0, 0
    half = rx * math.sqrt(1 - dy * dy)
    start = max(0, math.ceil(rx - half - 0.5))
    end = min(width, math.floor(rx + half - 0.5) + 1)
    return start, max(start, end)


def draw_rows(
    width: int, height: int, fill: str, shape: str = "rect", gradient: str | None = None
) -> list[bytes]:
    """RGBA rows of a "rect" or "circle" filled with `fill` (shading to `gradient` below)."""
    if shape not in ("rect", "circle"):
        raise ValueError(f"unknown shape {shape!r} (rect or circle)")
    if width < 1 or height < 1:
        raise ValueError(f"an image needs a positive size, not {width}x{height}")
    top = parse_color(fill)
    bottom = parse_color(gradient) if gradient else None
    rows = []
    for row in range(height):
        start, end = _span(shape, row, width, height)
        pixel = _row_color(top, bottom, row, height)
        rows.append(_TRANSPARENT * start + pixel * (end - start) + _TRANSPARENT * (width - end))
    return rows


def _chunk(kind: bytes, payload: bytes) -> bytes:
    crc = zlib.crc32(kind + payload) & 0xFFFFFFFF
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)


def encode_png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGBA PNG of `rows` (each `width` * 4 bytes), without time or text chunks."""
    if len(rows) != height or any(len(r) != width * 4 for r in rows):
        raise ValueError("rows do not match the image size")
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    raw = b"".join(b"\x00" + r for r in rows)  # filter type 0 (None) on every row
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def tone_samples(seconds: float, hz: float, rate: int, volume: float = 0.5) -> list[int]:
    """16-bit samples of a sine tone (silence when hz is 0), faded in and out over 5 ms."""
    count = round(seconds * rate)
    fade = max(1, min(count // 2, rate // 200))
    peak = volume * 32767
    out = []
    for i in range(count):
        ramp = min(1.0, i / fade, (count - 1 - i) / fade)
        out.append(round(peak * ramp * math.sin(2 * math.pi * hz * i / rate)) if hz else 0)
    return out


def encode_wav(samples: list[int], rate: int) -> bytes:
    """A PCM WAV file: 16-bit, mono, `rate` samples per second."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return buf.getvalue()

"""Costumes and sounds: the asset files a generated project carries, and their sb3 records.

Vector costumes are SVG text we write ourselves (the default). Bitmap costumes are PNGs drawn
from a solid shape, stored the way Scratch 3 stores them: at `bitmapResolution` 2 the image has
twice the on-stage size (a 100x50 costume is a 200x100 PNG) and its rotation centre is in image
pixels; resolution 1 is what projects converted from Scratch 2 carry (the VM needs its V2
bitmap adapter to load those). Sounds are PCM WAV tones.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from studio.services.core.projectbuild.media import draw_rows, encode_png, encode_wav, tone_samples

__all__ = ["STAGE_SIZE", "Costume", "Sound"]

STAGE_SIZE = (480, 360)


def _number(value: float) -> float:
    return int(value) if float(value).is_integer() else value


@dataclass(frozen=True)
class Costume:
    """A costume or backdrop: its file (SVG or PNG), rotation centre and bitmap resolution."""

    name: str
    data: bytes
    center: tuple[float, float]
    data_format: str = "svg"
    resolution: int = 1

    @property
    def svg(self) -> str:
        """The SVG text of a vector costume."""
        if self.data_format != "svg":
            raise ValueError(f"costume {self.name!r} is a {self.data_format} bitmap, not SVG")
        return self.data.decode("utf-8")

    @property
    def md5ext(self) -> str:
        return f"{hashlib.md5(self.data).hexdigest()}.{self.data_format}"

    def entry(self) -> dict[str, Any]:
        """The costume's record in project.json."""
        return {
            "name": self.name,
            "bitmapResolution": self.resolution,
            "dataFormat": self.data_format,
            "assetId": self.md5ext.rsplit(".", 1)[0],
            "md5ext": self.md5ext,
            "rotationCenterX": self.center[0],
            "rotationCenterY": self.center[1],
        }

    # ---- vector costumes ----------------------------------------------------------------
    @classmethod
    def shape(cls, name: str, width: float, height: float, body: str) -> Costume:
        """A costume of `width` x `height` drawn by the SVG elements in `body`, centred."""
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width:g}" '
            f'height="{height:g}" viewBox="0 0 {width:g} {height:g}">{body}</svg>'
        )
        return cls(name, svg.encode("utf-8"), (_number(width / 2), _number(height / 2)))

    @classmethod
    def circle(cls, name: str, radius: float, fill: str, stroke: str = "#333333") -> Costume:
        size = 2 * radius + 4
        body = (
            f'<circle cx="{size / 2:g}" cy="{size / 2:g}" r="{radius:g}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="2"/>'
        )
        return cls.shape(name, size, size, body)

    @classmethod
    def rect(cls, name: str, width: float, height: float, fill: str) -> Costume:
        body = (
            f'<rect x="2" y="2" width="{width:g}" height="{height:g}" rx="6" fill="{fill}" '
            'stroke="#333333" stroke-width="2"/>'
        )
        return cls.shape(name, width + 4, height + 4, body)

    @classmethod
    def backdrop(cls, name: str = "backdrop1", fill: str = "#ffffff") -> Costume:
        return cls.shape(name, 480, 360, f'<rect width="480" height="360" fill="{fill}"/>')

    # ---- bitmap costumes ----------------------------------------------------------------
    @classmethod
    def bitmap(
        cls,
        name: str,
        width: float,
        height: float,
        fill: str,
        shape: str = "rect",
        resolution: int = 2,
        gradient: str | None = None,
    ) -> Costume:
        """A PNG costume `width` x `height` on stage: a filled rectangle or an ellipse.

        The image is `resolution` times the on-stage size, centred; outside a circle the
        pixels are transparent. `gradient` (a second colour) shades the fill top to bottom.
        """
        if resolution not in (1, 2):
            raise ValueError(f"bitmapResolution is 1 or 2, not {resolution}")
        w, h = round(width * resolution), round(height * resolution)
        png = encode_png(w, h, draw_rows(w, h, fill, shape, gradient))
        return cls(name, png, (_number(w / 2), _number(h / 2)), "png", resolution)

    @classmethod
    def bitmap_backdrop(
        cls,
        name: str = "backdrop1",
        fill: str = "#ffffff",
        resolution: int = 2,
        gradient: str | None = None,
    ) -> Costume:
        """A PNG backdrop filling the stage (480x360 at resolution 1, 960x720 at 2)."""
        return cls.bitmap(name, *STAGE_SIZE, fill, "rect", resolution, gradient)


@dataclass(frozen=True)
class Sound:
    """A sound: its WAV file and the record project.json keeps for it."""

    name: str
    data: bytes
    rate: int
    sample_count: int

    @property
    def md5ext(self) -> str:
        return f"{hashlib.md5(self.data).hexdigest()}.wav"

    @property
    def seconds(self) -> float:
        return self.sample_count / self.rate

    def entry(self) -> dict[str, Any]:
        """The sound's record in project.json."""
        return {
            "name": self.name,
            "assetId": self.md5ext[:-4],
            "dataFormat": "wav",
            "format": "",
            "rate": self.rate,
            "sampleCount": self.sample_count,
            "md5ext": self.md5ext,
        }

    @classmethod
    def tone(cls, name: str, seconds: float, hz: float = 440, rate: int = 22050) -> Sound:
        """A sine tone of `seconds` (PCM 16-bit mono WAV); hz=0 gives silence."""
        if seconds <= 0 or rate <= 0:
            raise ValueError("a tone needs a positive length and sample rate")
        samples = tone_samples(seconds, hz, rate)
        return cls(name, encode_wav(samples, rate), rate, len(samples))

#!/usr/bin/env python3
"""Draws the Halma launcher icon and writes it at every Android density.

The drawing is a small vector scene (a 4x4 corner of the board with two opposing camps of
pieces) on the 108x108 canvas of an Android adaptive icon. This script rasterises it with
anti-aliasing from signed distances, using only the Python standard library, so anyone can
regenerate the icons without ImageMagick or Pillow:

    python3 android/make-icons.py

It writes, under android/res/:
- mipmap-<density>/ic_launcher.png        legacy square icon (rounded corners), 48 dp
- mipmap-<density>/ic_launcher_round.png  legacy round icon, 48 dp
- mipmap-<density>/ic_launcher_foreground.png  adaptive-icon foreground layer, 108 dp
- mipmap-anydpi-v26/ic_launcher.xml and ic_launcher_round.xml  adaptive icons (API 26+)
- values/ic_launcher_background.xml       the adaptive-icon background colour

The output is deterministic: running it twice gives identical files.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

RES = Path(__file__).resolve().parent / "res"

# Pixels per dp for each density bucket Android defines (mdpi is the 1x baseline).
DENSITIES = {"mdpi": 1.0, "hdpi": 1.5, "xhdpi": 2.0, "xxhdpi": 3.0, "xxxhdpi": 4.0}
LEGACY_ICON_DP = 48
ADAPTIVE_CANVAS_DP = 108
# Launchers show only the middle 72 dp of the 108 dp adaptive canvas; the legacy icons show
# the same part so that both kinds look alike.
VISIBLE_DP = 72

BACKGROUND = "#24463A"  # deep green baize behind the board
FRAME = "#5B3A21"  # dark wood around the board
LIGHT_SQUARE = "#F2E2C0"
DARK_SQUARE = "#CFA56B"
RED, RED_RIM = "#D8413B", "#7E1A16"
BLUE, BLUE_RIM = "#2F7BE0", "#123F7E"
HIGHLIGHT = "#FFFFFF"

BOARD_SQUARES = 4
SQUARE = 11.0  # dp; the board spans 44 dp, centred on the canvas (inside the 66 dp safe circle)
BOARD_ORIGIN = (ADAPTIVE_CANVAS_DP - BOARD_SQUARES * SQUARE) / 2
PIECE_RADIUS = 4.0
RIM_WIDTH = 1.0


def rgb(hex_colour: str) -> tuple[float, float, float]:
    value = int(hex_colour.lstrip("#"), 16)
    return ((value >> 16) / 255.0, ((value >> 8) & 255) / 255.0, (value & 255) / 255.0)


def rounded_box(cx: float, cy: float, half_w: float, half_h: float, radius: float):
    """Signed distance (negative inside) to a rectangle with rounded corners."""

    def distance(x: float, y: float) -> float:
        qx = abs(x - cx) - (half_w - radius)
        qy = abs(y - cy) - (half_h - radius)
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        inside = min(max(qx, qy), 0.0)
        return outside + inside - radius

    return distance, (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


def disc(cx: float, cy: float, radius: float):
    """Signed distance (negative inside) to a circle."""

    def distance(x: float, y: float) -> float:
        return math.hypot(x - cx, y - cy) - radius

    return distance, (cx - radius, cy - radius, cx + radius, cy + radius)


def scene() -> list[tuple[object, tuple[float, float, float], float]]:
    """The foreground drawing, back to front: (shape, colour, opacity)."""
    shapes = []
    centre = ADAPTIVE_CANVAS_DP / 2
    half_board = BOARD_SQUARES * SQUARE / 2
    shapes.append((rounded_box(centre, centre + 1.2, half_board + 3.0, half_board + 3.0, 4.0), rgb("#000000"), 0.25))
    shapes.append((rounded_box(centre, centre, half_board + 3.0, half_board + 3.0, 4.0), rgb(FRAME), 1.0))
    for row in range(BOARD_SQUARES):
        for col in range(BOARD_SQUARES):
            colour = LIGHT_SQUARE if (row + col) % 2 == 0 else DARK_SQUARE
            x = BOARD_ORIGIN + (col + 0.5) * SQUARE
            y = BOARD_ORIGIN + (row + 0.5) * SQUARE
            shapes.append((rounded_box(x, y, SQUARE / 2, SQUARE / 2, 0.0), rgb(colour), 1.0))

    # Two camps in opposite corners, as at the start of a two-player game.
    red_camp = [(0, 3), (1, 3), (0, 2)]
    blue_camp = [(3, 0), (2, 0), (3, 1)]
    for camp, body, rim in ((red_camp, RED, RED_RIM), (blue_camp, BLUE, BLUE_RIM)):
        for col, row in camp:
            x = BOARD_ORIGIN + (col + 0.5) * SQUARE
            y = BOARD_ORIGIN + (row + 0.5) * SQUARE
            shapes.append((disc(x, y + 0.6, PIECE_RADIUS), rgb("#000000"), 0.3))
            shapes.append((disc(x, y, PIECE_RADIUS), rgb(rim), 1.0))
            shapes.append((disc(x, y, PIECE_RADIUS - RIM_WIDTH), rgb(body), 1.0))
            shapes.append((disc(x - 1.2, y - 1.2, 1.1), rgb(HIGHLIGHT), 0.55))
    return shapes


def render(size_px: int, view: tuple[float, float, float], with_background: bool, mask=None) -> bytes:
    """Rasterises the scene: `view` = (left, top, width) of the canvas region, in dp.

    Coverage of each shape at a pixel centre is its signed distance in pixels, clamped to
    [0, 1] around the edge, which anti-aliases edges over one pixel.
    """
    left, top, width = view
    px_per_dp = size_px / width
    pixels = [[0.0, 0.0, 0.0, 0.0] for _ in range(size_px * size_px)]  # premultiplied RGBA
    layers = scene()
    if with_background:
        layers = [(rounded_box(54.0, 54.0, 200.0, 200.0, 0.0), rgb(BACKGROUND), 1.0)] + layers
    for (distance, (x0, y0, x1, y1)), (red, green, blue), opacity in layers:
        first_col = max(0, int((x0 - left) * px_per_dp) - 1)
        last_col = min(size_px - 1, int((x1 - left) * px_per_dp) + 1)
        first_row = max(0, int((y0 - top) * px_per_dp) - 1)
        last_row = min(size_px - 1, int((y1 - top) * px_per_dp) + 1)
        for py in range(first_row, last_row + 1):
            y = top + (py + 0.5) / px_per_dp
            for px in range(first_col, last_col + 1):
                x = left + (px + 0.5) / px_per_dp
                coverage = min(1.0, max(0.0, 0.5 - distance(x, y) * px_per_dp)) * opacity
                if coverage <= 0.0:
                    continue
                pixel = pixels[py * size_px + px]
                keep = 1.0 - coverage
                pixel[0] = red * coverage + pixel[0] * keep
                pixel[1] = green * coverage + pixel[1] * keep
                pixel[2] = blue * coverage + pixel[2] * keep
                pixel[3] = coverage + pixel[3] * keep
    if mask is not None:
        for py in range(size_px):
            for px in range(size_px):
                inside = min(1.0, max(0.0, 0.5 - mask((px + 0.5) / size_px, (py + 0.5) / size_px) * size_px))
                pixels[py * size_px + px] = [channel * inside for channel in pixels[py * size_px + px]]
    rows = bytearray()
    for py in range(size_px):
        rows.append(0)  # PNG filter type "none"
        for px in range(size_px):
            red, green, blue, alpha = pixels[py * size_px + px]
            if alpha > 0.0:
                red, green, blue = red / alpha, green / alpha, blue / alpha
            rows += bytes(round(min(1.0, max(0.0, c)) * 255) for c in (red, green, blue, alpha))
    return png(size_px, size_px, bytes(rows))


def png(width: int, height: int, raw_rows: bytes) -> bytes:
    """A minimal RGBA PNG: signature, IHDR, one IDAT, IEND."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw_rows, 9))
        + chunk(b"IEND", b"")
    )


def squircle_mask(x: float, y: float) -> float:
    """Legacy square icon outline on the unit square: rounded corners like most launchers."""
    distance, _ = rounded_box(0.5, 0.5, 0.5 - 1 / 48, 0.5 - 1 / 48, 0.18)
    return distance(x, y)


def round_mask(x: float, y: float) -> float:
    distance, _ = disc(0.5, 0.5, 0.5 - 1 / 48)
    return distance(x, y)


ADAPTIVE_XML = """<?xml version="1.0" encoding="utf-8"?>
<!-- Generated by android/make-icons.py: edit the script, not this file. -->
<adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
    <background android:drawable="@color/ic_launcher_background" />
    <foreground android:drawable="@mipmap/ic_launcher_foreground" />
</adaptive-icon>
"""

BACKGROUND_XML = f"""<?xml version="1.0" encoding="utf-8"?>
<!-- Generated by android/make-icons.py: edit the script, not this file. -->
<resources>
    <color name="ic_launcher_background">{BACKGROUND}</color>
</resources>
"""


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"{path.relative_to(RES.parent)}: {len(data)} bytes")


def main() -> None:
    margin = (ADAPTIVE_CANVAS_DP - VISIBLE_DP) / 2
    visible = (margin, margin, float(VISIBLE_DP))
    whole_canvas = (0.0, 0.0, float(ADAPTIVE_CANVAS_DP))
    for density, scale in DENSITIES.items():
        folder = RES / f"mipmap-{density}"
        legacy_px = round(LEGACY_ICON_DP * scale)
        write(folder / "ic_launcher.png", render(legacy_px, visible, True, squircle_mask))
        write(folder / "ic_launcher_round.png", render(legacy_px, visible, True, round_mask))
        adaptive_px = round(ADAPTIVE_CANVAS_DP * scale)
        write(folder / "ic_launcher_foreground.png", render(adaptive_px, whole_canvas, False))
    for name in ("ic_launcher.xml", "ic_launcher_round.xml"):
        write(RES / "mipmap-anydpi-v26" / name, ADAPTIVE_XML.encode())
    write(RES / "values" / "ic_launcher_background.xml", BACKGROUND_XML.encode())


if __name__ == "__main__":
    main()

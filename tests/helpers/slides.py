"""A Classroom slide's PNG read back: its size, margins and ink (the layout holds), and the QR code it draws."""

import io
import struct

import numpy as np
from PIL import Image

from ui.slide import MARGIN, SIZE


def qr_modules(png: bytes) -> list[list[int]]:
    """The QR code read back from a slide's PNG: its black modules (nothing else on the slide is that dark) found in
    the lower right quarter, the module's size from the top-left finder pattern (7 modules wide), each module's
    centre sampled; the quiet zone of 4 modules checked white."""
    grey = np.asarray(Image.open(io.BytesIO(png)).convert("L")).astype(int)
    corner = (slice(SIZE["height"] // 2, None), slice(SIZE["width"] // 2, None))
    black = np.zeros_like(grey, dtype=bool)
    black[corner] = grey[corner] < 40
    rows, cols = np.nonzero(black)
    top, left, bottom, right = rows.min(), cols.min(), rows.max() + 1, cols.max() + 1
    unit = np.argmin(black[top, left:]) / 7  # the finder's top edge: 7 dark modules, then a light one
    count = round((right - left) / unit)
    assert count == round((bottom - top) / unit) and abs(count * unit - (right - left)) <= 1  # square, whole modules
    quiet = grey[round(top - 4 * unit):round(bottom + 4 * unit), round(left - 4 * unit):round(right + 4 * unit)]
    assert (quiet[:round(4 * unit)] >= 250).all() and (quiet[:, :round(4 * unit)] >= 250).all()
    assert (quiet[-round(4 * unit):] >= 250).all() and (quiet[:, -round(4 * unit):] >= 250).all()
    return [[int(black[round(top + (r + 0.5) * unit), round(left + (c + 0.5) * unit)]) for c in range(count)]
            for r in range(count)]


def slide_layout_holds(png: bytes) -> None:
    """1920 x 1080, nothing in the margins, and text in every tenth of the height from 40% to 90%."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1920, 1080)
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).min(axis=2)
    painted = np.nonzero(pixels < 250)  # anything not white, fills included
    assert painted[1].min() >= MARGIN - 2 and painted[1].max() <= SIZE["width"] - MARGIN + 1  # left and right margins
    assert painted[0].min() >= 32 and painted[0].max() <= SIZE["height"] - 48  # top and bottom
    ink = (pixels < 160).any(axis=1)
    for band in range(4, 9):  # the bottom 40% is not empty: the table, the counters, the link
        assert ink[band * 108:(band + 1) * 108].any(), band

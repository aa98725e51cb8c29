"""An attestation for a test's report of findings: a signature drawn as a PNG, recorded as
a certified inspector's (or a design professional's)."""

from __future__ import annotations

import io
import math
from datetime import date
from typing import Any

from inspector_app.services.letters.attestation import Attester, attest


def signature_png(*, width: int = 480, height: int = 150, ink: tuple[int, ...] = (20, 30, 90),
                  waves: float = 5.0) -> bytes:
    """A signature-like stroke on a transparent background, as the app's pad saves one."""
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    points = [(20 + x, height / 2 + height / 4 * math.sin(x / (width / (waves * 6.28))))
              for x in range(0, width - 40, 4)]
    ImageDraw.Draw(image).line(points, fill=(*ink, 255), width=4)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def attest_report(ws: Any, sbl: str, *, on: date | None = None, name: str = "Pat Quinlan",
                  kind: str = "certified_inspector", number: str = "OTN 20417",
                  signature: bytes | None = None) -> dict[str, Any]:
    return attest(ws, sbl, Attester(name, kind, number), signature or signature_png(),
                  filename="signature.png", source="drawn", on=on)

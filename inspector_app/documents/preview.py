"""Turning PDF pages into pictures for an on-screen preview or a printer."""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2


@dataclass(frozen=True)
class PageImage:
    width: int
    height: int
    rgb: bytes  # width * height * 3 bytes, rows top to bottom


def render_pages(pdf: bytes, *, dpi: float = 96) -> list[PageImage]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for index in range(len(document)):
            image = document[index].render(scale=dpi / 72).to_pil().convert("RGB")
            pages.append(PageImage(image.width, image.height, image.tobytes()))
        return pages
    finally:
        document.close()

"""Laying letters out as PDF with reportlab: US Letter, embedded TrueType fonts.

The recipient's address sits where a #10 window envelope shows it when the letter is
folded in three; every letter numbers its own pages ("Page 1 of 2"); drafts carry a DRAFT
mark on every page. Output is byte-stable for the same input (reportlab's invariant
mode), so a letter can be checked against its stored hash.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import reportlab
from pypdf import PdfReader, PdfWriter
from reportlab.graphics.shapes import (
    STATE_DEFAULTS,
    Circle,
    Drawing,
    Line,
    Polygon,
    PolyLine,
    Rect,
    String,
)
from reportlab.graphics.shapes import Image as DrawnImage
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    Image,
    KeepTogether,
    PageTemplate,
    Spacer,
    TableStyle,
)
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from ..domain.jurisdiction import EXAMPLE_MARK
from .content import (
    AttestationBlock,
    Bullets,
    Heading,
    Letter,
    Paragraph,
    Photo,
    Sketch,
    Table,
)
from .templates import Office, escape

PAGE_W, PAGE_H = LETTER
MARGIN = 0.875 * inch
# #10 window envelope: the window is 4.5 x 1.125 in, 7/8 in from the left and 1/2 in from
# the bottom of the envelope; folded in three, the letter's address block must sit about
# 2 1/8 in below the top of the page.
WINDOW_LEFT = 0.875 * inch
WINDOW_TOP = 2.125 * inch
WINDOW_W, WINDOW_H = 3.75 * inch, 1.0 * inch
FIRST_BODY_TOP = 3.45 * inch
# The body's frame: from BODY_BOTTOM up to FIRST_BODY_TOP below the top of the first page,
# to LATER_BODY_TOP on the others (heights from the bottom of the page), clear of the
# letterhead, the running header and the footer.
BODY_BOTTOM = 0.85 * inch
LATER_BODY_TOP = PAGE_H - 1.0 * inch
FONT = "Vera"
# Below the page's footer line: from the first line's baseline to the last one's.
DRAFT_NOTE_HEIGHT = 0.36 * inch - 6
SIZES = (7.5, 7.0, 6.5, 6.0, 5.5, 5.0)


def fit_lines(text: str, font: str, width: float, height: float,
              sizes: Sequence[float] = SIZES) -> tuple[float, list[str]]:
    """The text wrapped at spaces into `width`, in the largest of `sizes` whose lines (each
    `size + 1` apart) fit `height` from the first baseline to the last. ValueError when even
    the smallest does not fit: nothing is ever cut."""
    for size in sizes:
        lines = simpleSplit(text, font, size, width)
        if (len(lines) - 1) * (size + 1) <= height and all(
                pdfmetrics.stringWidth(line, font, size) <= width for line in lines):
            return size, lines
    raise ValueError(f"{text!r} does not fit in {width:.0f} x {height:.0f} pt")


@lru_cache(maxsize=1)
def register_fonts() -> str:
    """Register reportlab's bundled Bitstream Vera family (covers § and Latin-1)."""
    folder = Path(reportlab.__file__).parent / "fonts"
    for name, file in (("Vera", "Vera.ttf"), ("Vera-Bold", "VeraBd.ttf"),
                       ("Vera-Italic", "VeraIt.ttf"), ("Vera-BoldItalic", "VeraBI.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    pdfmetrics.registerFontFamily("Vera", normal="Vera", bold="Vera-Bold",
                                  italic="Vera-Italic", boldItalic="Vera-BoldItalic")
    # Drawings (the site sketch) start from reportlab's default font; make it ours so no
    # non-embedded font is ever referenced.
    STATE_DEFAULTS["fontName"] = FONT
    return FONT


def _styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    body = ParagraphStyle("body", fontName=FONT, bulletFontName=FONT, fontSize=10.5, leading=14,
                          spaceAfter=7)
    return {
        "body": body,
        "title": ParagraphStyle("title", parent=body, fontName="Vera-Bold", fontSize=13,
                                alignment=TA_CENTER, spaceAfter=10, leading=16),
        "subject": ParagraphStyle("subject", parent=body, fontName="Vera-Bold"),
        "bullet": ParagraphStyle("bullet", parent=body, leftIndent=16, bulletIndent=4,
                                 spaceAfter=4),
        "heading": ParagraphStyle("heading", parent=body, fontName="Vera-Bold", fontSize=11,
                                  spaceBefore=6, spaceAfter=4),
        "cell": ParagraphStyle("cell", parent=body, fontSize=8.5, leading=10.5, spaceAfter=0),
        "small": ParagraphStyle("small", parent=body, fontSize=8.5, leading=11),
    }


# What a canvas draws on each page once the page count is known: (canvas, total pages).
Decorate = Callable[[rl_canvas.Canvas, int], None]


def numbered_canvas(decorate: Decorate) -> type[rl_canvas.Canvas]:
    """A canvas that knows the page count: each page is held until the document ends,
    then `decorate(canvas, total)` draws on it (for "Page 1 of 2")."""

    class NumberedCanvas(rl_canvas.Canvas):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # Start every page in the embedded font, so no non-embedded base font appears.
            kwargs["initialFontName"] = FONT
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for state in self._pages:
                self.__dict__.update(state)
                decorate(self, total)
                super().showPage()
            super().save()

    return NumberedCanvas


def _numbered_canvas(letter: Letter, office: Office, draft: bool, banner: str
                     ) -> type[rl_canvas.Canvas]:
    """The letter's canvas: "Page 1 of 2", its footer and, on drafts, the DRAFT mark."""

    def decorate(self: rl_canvas.Canvas, total: int) -> None:
        self.setFont(FONT, 8)
        self.setFillColor(colors.HexColor("#444444"))
        number = self.getPageNumber()
        self.drawRightString(PAGE_W - MARGIN, 0.5 * inch, f"Page {number} of {total}")
        self.drawString(MARGIN, 0.5 * inch,
                        f"Tax map {letter.sbl}  |  {letter.title.capitalize()}  |  "
                        f"{letter.letter_date.isoformat()}")
        if number > 1:
            self.drawString(MARGIN, PAGE_H - 0.55 * inch,
                            f"{letter.recipient[0]} - {office.office_name}")
        if draft:
            self.saveState()
            self.setFillColor(colors.Color(0.75, 0.1, 0.1, alpha=0.16))
            self.setFont("Vera-Bold", 110)
            self.translate(PAGE_W / 2, PAGE_H / 2)
            self.rotate(45)
            self.drawCentredString(0, -40, "DRAFT")
            self.restoreState()
            self.setFont("Vera-Bold", 9)
            self.setFillColor(colors.Color(0.7, 0.1, 0.1))
            self.drawRightString(PAGE_W - MARGIN, PAGE_H - 0.4 * inch, banner)
            if letter.draft_note:
                # why this draft could not be issued, on every page, so a printed
                # page cannot pass for a finding: whole, in a smaller size if need be
                try:
                    size, lines = fit_lines(letter.draft_note, "Vera-Bold",
                                            PAGE_W - 2 * MARGIN, DRAFT_NOTE_HEIGHT)
                except ValueError:  # beyond any real note: end between words, marked
                    size = SIZES[-1]
                    room = int(DRAFT_NOTE_HEIGHT // (size + 1)) + 1
                    lines = simpleSplit(letter.draft_note, "Vera-Bold", size,
                                        PAGE_W - 2 * MARGIN - 10)[:room]
                    lines[-1] += " \u2026"
                self.setFont("Vera-Bold", size)
                for n, line in enumerate(lines):
                    self.drawString(MARGIN, 0.36 * inch - (size + 1) * n, line)

    return numbered_canvas(decorate)


def _first_page(letter: Letter, office: Office) -> Callable[[Any, Any], None]:
    def draw(c: Any, _doc: Any) -> None:
        c.saveState()
        top = PAGE_H - 0.55 * inch
        c.setFillColor(colors.HexColor("#1f3b57"))
        c.setFont("Vera-Bold", 14)
        c.drawString(MARGIN, top, office.office_name)
        c.setFont(FONT, 9)
        c.setFillColor(colors.HexColor("#333333"))
        lines = [office.department, *office.address,
                 "  ".join(x for x in (office.phone, office.email) if x)]
        for n, line in enumerate(x for x in lines if x):
            c.drawString(MARGIN, top - 14 - 11 * n, line)
        if office.logo is not None:
            c.drawImage(str(office.logo), PAGE_W - MARGIN - 0.9 * inch, top - 0.75 * inch,
                        width=0.9 * inch, height=0.9 * inch, preserveAspectRatio=True,
                        mask="auto")
        c.setStrokeColor(colors.HexColor("#1f3b57"))
        c.setLineWidth(0.8)
        c.line(MARGIN, PAGE_H - 1.55 * inch, PAGE_W - MARGIN, PAGE_H - 1.55 * inch)
        c.setFillColor(colors.black)
        c.setFont(FONT, 10.5)
        y = PAGE_H - WINDOW_TOP - 11
        for line in letter.recipient[:6]:
            c.drawString(WINDOW_LEFT, y, line)
            y -= 13
        d = letter.letter_date
        c.drawRightString(PAGE_W - MARGIN, PAGE_H - WINDOW_TOP - 11, f"{d:%B} {d.day}, {d.year}")
        c.restoreState()

    return draw


def _sketch_flowable(s: Sketch, width: float) -> Drawing:
    """The sketch, its notes above it and its caption below, each wrapped to the width."""
    map_h = 3.6 * inch - 18
    caption = simpleSplit(s.caption, FONT, 7, width)
    if s.imagery is not None and s.imagery_label:
        caption += simpleSplit(s.imagery_label, "Vera-Bold", 7, width)
    notes = [line for note in s.notes for line in simpleSplit(note, "Vera-Bold", 8, width)]
    base = 6 + 9 * len(caption)  # the map's bottom edge
    top = base + map_h  # the map's top edge
    height = top + (6 + 10 * len(notes) if notes else 0)
    minx, miny, maxx, maxy = s.window
    scale = min(width / (maxx - minx), map_h / (maxy - miny))
    ox = (width - (maxx - minx) * scale) / 2
    d = Drawing(width, height)

    def pts(coords: Sequence[tuple[float, float]]) -> list[float]:
        out: list[float] = []
        for x, y in coords:
            out += [ox + (x - minx) * scale, base + (y - miny) * scale]
        return out

    d.add(Polygon(pts([(minx, miny), (maxx, miny), (maxx, maxy), (minx, maxy)]),
                  fillColor=colors.white, strokeColor=colors.HexColor("#999999"),
                  strokeWidth=0.5))
    if s.imagery is not None:
        # the aerial imagery, baked into the page; the water shows in it
        from PIL import Image as PILImage

        d.add(DrawnImage(ox, base, (maxx - minx) * scale, (maxy - miny) * scale,
                    PILImage.open(io.BytesIO(s.imagery)).convert("RGB")))
    for ring in (r for r in s.water if len(r) >= 3 and s.imagery is None):
        d.add(Polygon(pts(ring), fillColor=colors.HexColor("#d6e9f8"), strokeColor=None))
    for ring in (r for r in s.band if len(r) >= 3):
        d.add(Polygon(pts(ring), fillColor=colors.Color(1.0, 0.85, 0.5, alpha=0.45),
                      strokeColor=None))
    for line in (r for r in s.shore if len(r) >= 2):
        d.add(PolyLine(pts(line), strokeColor=colors.HexColor("#1d6fb8"), strokeWidth=1.6))
    for ring in s.areas:
        if len(ring) >= 3:
            d.add(Polygon(pts(ring), fillColor=colors.Color(0.55, 0.35, 0.15, alpha=0.35),
                          strokeColor=colors.HexColor("#5a3a1a"), strokeWidth=1))
        else:  # a holding tank recorded as a point
            x, y = pts(ring[:1])
            d.add(Circle(x, y, 4, fillColor=colors.HexColor("#5a3a1a")))
    for label, coords in s.features:
        p = pts(coords)
        if len(coords) == 1:
            d.add(Circle(p[0], p[1], 3, fillColor=colors.HexColor("#2b7a3d")))
        else:
            d.add(PolyLine(p, strokeColor=colors.HexColor("#2b7a3d"), strokeWidth=0.8,
                           strokeDashArray=[3, 2]))
        d.add(String(p[0] + 4, p[1] + 3, label, fontName=FONT, fontSize=6.5,
                     fillColor=colors.HexColor("#2b7a3d")))
    for label, point in s.photos:  # where a photo was taken: a small magenta square
        x, y = pts([point])[0:2]
        d.add(Rect(x - 2.5, y - 2.5, 5, 5, fillColor=colors.HexColor("#a0287a"),
                   strokeColor=colors.white, strokeWidth=0.5))
        d.add(String(x + 4, y - 8, label, fontName=FONT, fontSize=6,
                     fillColor=colors.HexColor("#a0287a")))
    _draw_lot(d, s, pts, width)
    if s.nearest is not None:
        a, b = s.nearest
        (x1, y1), (x2, y2) = pts([a])[0:2], pts([b])[0:2]
        d.add(Line(x1, y1, x2, y2, strokeColor=colors.HexColor("#c0392b"), strokeWidth=1.3))
        d.add(String((x1 + x2) / 2 + 4, (y1 + y2) / 2, s.distance_label, fontName="Vera-Bold",
                     fontSize=8, fillColor=colors.HexColor("#c0392b")))
    # scale bar: a round number of feet near a quarter of the window
    span = (maxx - minx) / 4
    bar = 10 ** math.floor(math.log10(span))
    bar = max((b for b in (bar, 2 * bar, 5 * bar) if b <= span), default=bar)
    d.add(Line(ox + 6, base + 6, ox + 6 + bar * scale, base + 6, strokeWidth=2))
    d.add(String(ox + 6, base + 10, f"{bar:,.0f} ft", fontName=FONT, fontSize=7))
    d.add(String(ox + (maxx - minx) * scale - 14, base + (maxy - miny) * scale - 14, "N",
                 fontName="Vera-Bold", fontSize=9))
    for n, line in enumerate(notes):
        d.add(String(0, height - 9 - 10 * n, line, fontName="Vera-Bold", fontSize=8,
                     fillColor=colors.HexColor("#c0392b")))
    for n, line in enumerate(caption):
        d.add(String(0, base - 9 - 9 * n, line, fontName=FONT, fontSize=7,
                     fillColor=colors.HexColor("#444444")))
    return d


LOT_COLOUR = "#6b4f9e"


def _draw_lot(d: Drawing, s: Sketch, pts: Callable[[Sequence[tuple[float, float]]],
                                                  list[float]], width: float) -> None:
    """The lot line from the lot layer: a thin dash-dot line, labelled at its top with the
    layer's name (demo lots are not a tax map)."""
    lines = [r for r in s.lot if len(r) >= 2]
    for line in lines:
        d.add(PolyLine(pts(line), strokeColor=colors.HexColor(LOT_COLOUR), strokeWidth=0.6,
                       strokeDashArray=[6, 2, 1, 2]))
    if lines and s.lot_label:
        x, y = pts([max((p for line in lines for p in line), key=lambda p: p[1])])
        shown = min(x + 3, width - pdfmetrics.stringWidth(s.lot_label, FONT, 6.5))
        d.add(String(max(shown, 0), y - 8, s.lot_label, fontName=FONT, fontSize=6.5,
                     fillColor=colors.HexColor(LOT_COLOUR)))


def _story(letter: Letter, office: Office, width: float) -> list[Any]:
    st = _styles()
    story: list[Any] = [RLParagraph(letter.title, st["title"])]
    if letter.subject:
        story.append(RLParagraph(f"Re: {letter.subject}", st["subject"]))
    if letter.salutation:
        story.append(RLParagraph(letter.salutation, st["body"]))
    for block in letter.blocks:
        if isinstance(block, Paragraph):
            story.append(RLParagraph(block.text, st["body"]))
        elif isinstance(block, Heading):
            story.append(RLParagraph(block.text, st["heading"]))
            story[-1].keepWithNext = True
        elif isinstance(block, Bullets):
            story += [RLParagraph(item, st["bullet"], bulletText="\u2022") for item in block.items]
            story.append(Spacer(1, 4))
        elif isinstance(block, Table):
            data = [[RLParagraph(f"<b>{h}</b>", st["cell"]) for h in block.header]]
            data += [[RLParagraph(cell, st["cell"]) for cell in row] for row in block.rows]
            table = RLTable(data, colWidths=[width * f for f in block.widths], repeatRows=1)
            table.setStyle(TableStyle([
                ("FONTNAME", (0, 0), (-1, -1), FONT),  # tables default to Helvetica
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8eef4")),
                ("VALIGN", (0, 0), (-1, -1), "TOP")]))
            story += [table, Spacer(1, 8)]
        elif isinstance(block, Sketch):
            story += [KeepTogether([RLParagraph("Site sketch", st["heading"]),
                                    _sketch_flowable(block, width)]), Spacer(1, 8)]
        elif isinstance(block, Photo):
            story.append(_photo(block, st))
        elif isinstance(block, AttestationBlock):
            story.append(_attestation(block, st))
    for text in letter.closing:
        story.append(RLParagraph(text, st["body"]))
    # The signature never stands alone on a page, nor with its closing only: it goes with
    # the last two paragraphs (and any space between them).
    last: list[Any] = []
    while letter.signed and story and isinstance(story[-1], RLParagraph | Spacer) and sum(
            isinstance(x, RLParagraph) for x in last) < 2:
        last.insert(0, story.pop())
    if letter.signed:
        signature: list[Any] = [Spacer(1, 6), RLParagraph("Sincerely,", st["body"])]
        if office.signature_image is not None:
            image = Image(str(office.signature_image), width=1.8 * inch, height=0.6 * inch,
                          kind="proportional")
            signature.append(image)
        else:
            signature.append(Spacer(1, 0.45 * inch))
        for line in office.signature_lines:
            signature.append(RLParagraph(escape(line), ParagraphStyle(
                "sig", parent=st["body"], spaceAfter=0)))
        story.append(KeepTogether([*last, *signature]))
    if letter.cc:
        story += [Spacer(1, 10), RLParagraph("cc: " + "; ".join(letter.cc), st["small"])]
    return story


def _date_words(d: Any) -> str:
    return f"{d:%B} {d.day}, {d.year}"


def _photo(block: Photo, st: dict[str, ParagraphStyle]) -> Any:
    """A photo drawn from a copy made within the pixel budget (`images.printable_photo`);
    one that cannot be is named in its place with the reason, never decoded whole."""
    from xml.sax.saxutils import escape

    from .images import ImageRefused, printable_photo

    try:
        image = Image(io.BytesIO(printable_photo(block.path, block.marks)))
    except ImageRefused as exc:
        return RLParagraph(f"[Photo not printed: {escape(block.caption)} {escape(str(exc))}; "
                           "it is kept with the case.]", st["small"])
    ratio = min(3.2 * inch / image.imageWidth, 2.4 * inch / image.imageHeight)
    image.drawWidth, image.drawHeight = image.imageWidth * ratio, image.imageHeight * ratio
    return KeepTogether([image, RLParagraph(escape(block.caption), st["small"])])


def _attestation(a: AttestationBlock, st: dict[str, ParagraphStyle]) -> KeepTogether:
    """The attestation: its statement, the signature image over a line, and who signed,
    as what, their number and the day; kept on one page."""
    from xml.sax.saxutils import escape

    line = ParagraphStyle("attest", parent=st["body"], spaceAfter=0)
    signature = Image(str(a.signature), width=2.4 * inch, height=0.75 * inch,
                      kind="proportional", hAlign="LEFT")
    rule = RLTable([[""]], colWidths=[3.2 * inch], hAlign="LEFT",
                   style=TableStyle([("LINEABOVE", (0, 0), (-1, -1), 0.6, colors.black),
                                     ("TOPPADDING", (0, 0), (-1, -1), 0)]))
    return KeepTogether([
        RLParagraph("I attest that this report describes the elements of the system, the tests "
                    "performed and the distances measured as recorded for the inspection of "
                    f"{_date_words(a.inspection_date)}.", st["body"]),
        signature, rule,
        RLParagraph(f"<b>{escape(a.name)}</b>", line),
        RLParagraph(f"{escape(a.kind)}, {escape(a.number)}", line),
        RLParagraph(f"Attested on {_date_words(a.attested_on)}", line),
        RLParagraph(f"Signature image SHA-256 {a.signature_sha256}", st["small"])])


def render_letter(letter: Letter, office: Office, *, draft: bool,
                  example_law: bool = False) -> bytes:
    """The letter as a PDF. Under an example law (not a town's adopted one) it is always a
    draft, marked "DRAFT - EXAMPLE LAW" on every page."""
    register_fonts()
    banner = EXAMPLE_MARK if example_law else "DRAFT - NOT ISSUED"
    draft = draft or example_law
    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=LETTER, leftMargin=MARGIN, rightMargin=MARGIN,
                          topMargin=inch, bottomMargin=0.85 * inch, invariant=1,
                          title=f"{letter.title.capitalize()} - {letter.sbl}",
                          author=office.office_name,
                          subject=f"{letter.kind} {letter.letter_date.isoformat()}",
                          creator="Watershed Inspector")
    width = PAGE_W - 2 * MARGIN
    first = Frame(MARGIN, BODY_BOTTOM, width, PAGE_H - FIRST_BODY_TOP - BODY_BOTTOM,
                  id="first", leftPadding=0, rightPadding=0)
    later = Frame(MARGIN, BODY_BOTTOM, width, LATER_BODY_TOP - BODY_BOTTOM, id="later",
                  leftPadding=0, rightPadding=0)
    doc.addPageTemplates([
        PageTemplate(id="First", frames=[first], onPage=_first_page(letter, office),
                     autoNextPageTemplate="Later"),
        PageTemplate(id="Later", frames=[later])])
    doc.build(_story(letter, office, width),
              canvasmaker=_numbered_canvas(letter, office, draft, banner))
    return buffer.getvalue()


def merge(pdfs: Sequence[bytes]) -> bytes:
    """One PDF for the printer; each letter keeps its own page numbers."""
    writer = PdfWriter()
    for pdf in pdfs:
        writer.append(PdfReader(io.BytesIO(pdf)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


LABEL_SIZES = (9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0)
# Avery 5160: 3 x 10 labels of 2 5/8 x 1 in; the text sits 0.15 in inside the label's left
# edge, its first baseline 0.22 in below the top, its last at least 0.1 in above the bottom.
LABEL_TEXT_W = 2.35 * inch
LABEL_TEXT_H = (1.0 - 0.22 - 0.1) * inch


class LabelTooLong(ValueError):
    """An address that does not fit a label even wrapped in the smallest size."""


def label_lines(lines: Sequence[str]) -> tuple[float, list[str]]:
    """An address laid out for one label: each of its lines wrapped at spaces into the
    label's width, in the largest size whose lines fit the label's height. LabelTooLong
    (naming the address) when none does: an address is never cut."""
    register_fonts()  # measured in the labels' own font, whatever was printed before
    text = [" ".join(str(x).split()) for x in lines if str(x).strip()]
    for size in LABEL_SIZES:
        wrapped = [part for line in text for part in simpleSplit(line, FONT, size,
                                                                  LABEL_TEXT_W)]
        if (len(wrapped) - 1) * (size + 2) <= LABEL_TEXT_H and all(
                pdfmetrics.stringWidth(x, FONT, size) <= LABEL_TEXT_W for x in wrapped):
            return size, wrapped
    raise LabelTooLong(f"the address {' / '.join(text)!r} does not fit on an Avery 5160 label "
                       f"even in {LABEL_SIZES[-1]:g}-point type; shorten it on the parcel's "
                       "record")


def labels_5160(addresses: Sequence[Sequence[str]]) -> bytes:
    """Mailing labels on Avery 5160 sheets: 3 x 10 labels of 2 5/8 x 1 in. Every address is
    laid out before anything is drawn (LabelTooLong for one that cannot fit)."""
    register_fonts()
    laid_out = [label_lines(lines) for lines in addresses]
    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, pagesize=LETTER, invariant=1, initialFontName=FONT)
    c.setTitle("Mailing labels (Avery 5160)")
    left, top, pitch_x, pitch_y = 0.1875 * inch, 0.5 * inch, 2.75 * inch, 1.0 * inch
    for n, (size, lines) in enumerate(laid_out):
        if n and n % 30 == 0:
            c.showPage()
        col, row = n % 3, (n % 30) // 3
        x = left + col * pitch_x + 0.15 * inch
        y = PAGE_H - top - row * pitch_y - 0.22 * inch
        c.setFont(FONT, size)
        for line in lines:
            c.drawString(x, y, line)
            y -= size + 2
    c.showPage()
    c.save()
    return buffer.getvalue()

"""Printing letters' pages as images on a printer the user chose."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtPrintSupport import QPrinter


def print_images(images: list[QImage], printer: QPrinter) -> bool:
    """Each image on a page of its own, as large as the page allows without distortion.
    False when the printer could not be started."""
    painter = QPainter()
    if not painter.begin(printer):
        return False
    try:
        for n, image in enumerate(images):
            if n:
                printer.newPage()
            area = (printer.paperRect(QPrinter.Unit.DevicePixel) if printer.fullPage()
                    else printer.pageRect(QPrinter.Unit.DevicePixel))
            scale = min(area.width() / image.width(), area.height() / image.height())
            w, h = image.width() * scale, image.height() * scale
            painter.drawImage(QRectF((area.width() - w) / 2, (area.height() - h) / 2, w, h),
                              image)
    finally:
        painter.end()
    return True


def printer_destination(printer: QPrinter) -> str:
    if printer.outputFormat() == QPrinter.OutputFormat.PdfFormat:
        return printer.outputFileName()
    return printer.printerName() or "the printer"

"""500 letters in one batch.

Prints letters per second for rendering the letters (layout, letterhead, window address,
page numbering, embedded fonts) and its ratio to a bare reportlab document that sets the
same text in the same fonts, measured in the same run (goals: at least 60 letters a
second, ratio at most 1.5). Also prints the end-to-end rate including composing each
letter from its parcel's records.

Run: python -m benchmarks.bench_letters
"""

from __future__ import annotations

import io
import tempfile
import time
from datetime import date
from pathlib import Path

from reportlab.lib.pagesizes import LETTER
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import SimpleDocTemplate

from benchmarks.common import Goal, report
from inspector_app.documents.content import Bullets, Letter, Paragraph
from inspector_app.documents.render import _styles, merge, render_letter
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters.register import compose, office_for
from inspector_app.services.workspace import Workspace

LETTERS = 500
AS_OF = date(2026, 11, 25)
GOAL_RATE, GOAL_RATIO = 60.0, 1.5


def bare(letter: Letter) -> bytes:
    """The same words in the same fonts, laid out by reportlab with nothing of ours."""
    st = _styles()
    story = [RLParagraph(letter.title, st["title"]), RLParagraph(letter.subject, st["body"]),
             RLParagraph(letter.salutation, st["body"])]
    story += [RLParagraph(line, st["body"]) for line in letter.recipient]
    for block in letter.blocks:
        if isinstance(block, Paragraph):
            story.append(RLParagraph(block.text, st["body"]))
        elif isinstance(block, Bullets):
            story += [RLParagraph(item, st["bullet"], bulletText="\u2022")
                      for item in block.items]
    story += [RLParagraph(text, st["body"]) for text in letter.closing]
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=LETTER, invariant=1).build(story)
    return buffer.getvalue()


def main() -> list[Goal]:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp), user="benchmark")
        install_demo(ws, count=LETTERS * 3, today=AS_OF)
        sbls = [r["sbl"] for r in ws.store.query("SELECT sbl FROM parcels")]
        start = time.perf_counter()
        contents = []
        for sbl in sbls:
            # a parcel with no law on file has no letters
            kinds = getattr(ws.assess_parcel(sbl, as_of=AS_OF), "letters", ())
            if not kinds:  # owner letters only: text the bare baseline can set too
                continue
            contents.append(compose(ws, sbl, kinds[0].value, as_of=AS_OF))
            if len(contents) == LETTERS:
                break
        t_compose = time.perf_counter() - start
        office = office_for(ws)
        ws.close()

    bare(contents[0])
    render_letter(contents[0], office, draft=False)  # fonts registered, caches warm
    best_ours = best_bare = float("inf")
    pdfs: list[bytes] = []
    for _ in range(2):
        start = time.perf_counter()
        pdfs = [render_letter(letter, office, draft=False) for letter in contents]
        best_ours = min(best_ours, time.perf_counter() - start)
        start = time.perf_counter()
        for letter in contents:
            bare(letter)
        best_bare = min(best_bare, time.perf_counter() - start)
    start = time.perf_counter()
    merged = merge(pdfs)
    t_merge = time.perf_counter() - start
    kinds = sorted({c.kind for c in contents})
    report(f"letters: {len(contents)} in one batch ({', '.join(kinds)})", [
        ("render, ours", f"{len(contents) / best_ours:8.1f} letters/s   (goal >= {GOAL_RATE:g})"),
        ("render, bare reportlab", f"{len(contents) / best_bare:8.1f} letters/s"),
        ("ratio ours / bare", f"{best_ours / best_bare:8.2f}   (goal <= {GOAL_RATIO})"),
        ("compose from records", f"{len(contents) / t_compose:8.1f} letters/s"),
        ("end to end", f"{len(contents) / (t_compose + best_ours):8.1f} letters/s"),
        ("merge into one PDF", f"{t_merge:8.2f} s, {len(merged) / 1e6:.1f} MB"),
    ])
    rate, ratio = len(contents) / best_ours, best_ours / best_bare
    return [Goal("letters", "letters per second (500 in a batch)", f"{rate:.0f}/s",
                 f">= {GOAL_RATE:g}/s", rate >= GOAL_RATE),
            Goal("letters", "ratio to bare reportlab", f"{ratio:.2f}", f"<= {GOAL_RATIO}",
                 ratio <= GOAL_RATIO)]


if __name__ == "__main__":
    main()

"""Draw the demo's invented aerial image in advance: resources/demo/invented-demo-imagery.tif
and the list of the homesteads it shows (.json beside it).

Run it after a change to the demo parcels' places, the demo lake or the drawing
(geo/demo_image.py): `.venv/bin/python scripts/make_demo_imagery.py`.
tests/services/test_demo_imagery.py fails while the premade image is out of date.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector_app.services.demo import imagery as demo_imagery
from inspector_app.services.demo import parcels as demo  # noqa: E402
from inspector_app.services.workspace import Workspace  # noqa: E402


def main() -> None:
    """The image shows the named parcels of the demo (`demo`) and of the big demo
    (`demo --parcels 20000`), which lie elsewhere; a demo of another size draws its own."""
    with tempfile.TemporaryDirectory() as tmp:
        folders = [Workspace(Path(tmp) / str(count), user="demo") for count in (40, 20_000)]
        try:
            for ws, count in zip(folders, (40, 20_000), strict=True):
                demo.install_demo(ws, count=count)
            for path in demo_imagery.make_premade(folders, demo._lake_outline(),
                                                  ROOT / "resources" / "demo"):
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
        finally:
            for ws in folders:
                ws.close()


if __name__ == "__main__":
    main()

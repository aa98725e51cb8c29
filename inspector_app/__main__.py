"""Entry point: `inspector-app` and `python -m inspector_app`."""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from .cli import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())

"""Entry point of the packaged app: the same as `inspector-app`."""

import sys

from inspector_app.__main__ import main

if __name__ == "__main__":
    sys.exit(main())

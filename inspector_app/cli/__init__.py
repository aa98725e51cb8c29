"""The command line: the headless twin of the GUI, per the public CLI contract.

Results go to stdout as one JSON document; errors go to stderr as one sentence with exit
status 2 (bad input) or 1 (anything else). Input is checked before the data folder is
opened, so a refused command leaves nothing behind.

`main` builds the top-level parser from the command groups and runs a command; each
group module (`cases`, `parcels`, `folder`, `rules`, `layers`, `letters`, `reports`,
`sync`) holds its commands' parsers next to their handlers; `common` holds what they
share.
"""

from __future__ import annotations

from .main import build_parser, run

__all__ = ["build_parser", "run"]

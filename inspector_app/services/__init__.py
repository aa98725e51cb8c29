"""Use cases: the API that the command line and the desktop app both call."""

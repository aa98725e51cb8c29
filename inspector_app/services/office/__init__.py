"""The office database on a server: making one, copying a data folder into it, and the
people who log in to it."""

"""Plain values and the rules of Chapter 202. No I/O, no Qt."""

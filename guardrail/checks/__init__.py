"""The inline checks, one module each; every check is compiled once and is a pure function of a turn."""

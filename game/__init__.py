"""Fichas' dominoes engine: pure rules, no Flask, no I/O, no clock, no global random."""

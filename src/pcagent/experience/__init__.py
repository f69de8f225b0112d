"""Experience: what pcagent learns from recorded runs, kept for later ones.

It is built from the run records: a page graph (the screens an application showed and the actions
that led from one to the next) and a long-term memory of instructions, screens and what worked on
them, found again by similarity. The sentence encoder (:mod:`.embedding`) turns short screen
summaries and instructions into vectors; the vector index (:mod:`.vectors`) finds the nearest ones.
Import those modules directly; this package imports nothing heavy on its own.
"""

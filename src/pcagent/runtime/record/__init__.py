"""The run record: the typed contents of a run, the SQLite store and its layout, writing a step as
it happens, the checkpoint saved with it, export and import, and replay from the record."""

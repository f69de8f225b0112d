"""Provider adapters behind :class:`pcagent.models.backend.ChatBackend`.

Each module imports its SDK itself, so importing ``pcagent.models`` does not load them all.
"""

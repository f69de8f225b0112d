"""Provider adapters behind :class:`pcagent.models.backend.ChatBackend`.

Each module imports its SDK itself, so importing ``pcagent.models`` does not load them all.

Every backend is built the same way, ``Backend(source, *, info, **options)``: first where its
answers come from (a server's ``base_url``, a ``gguf_path``, a recording ``directory``, scripted
``responses``), then keyword-only its :class:`~pcagent.models.backend.BackendInfo`, then the
options of its kind (model name, keys, threads, mode...).
"""

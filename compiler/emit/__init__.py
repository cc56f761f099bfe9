"""Emit: a resolved title -> its Python engine (`emitter`), and loading engines (`engines`).

Imports the language and the leaves, never verify, docs or app (ARCHITECTURE.md, "Layers")."""

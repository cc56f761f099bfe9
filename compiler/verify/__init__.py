"""Verify: a title's invariants proved with z3 (`verifier`), and the engine checked against
its translation (`validate`).

Imports emit, the language and the leaves, never docs or app (ARCHITECTURE.md, "Layers")."""

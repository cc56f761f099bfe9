"""Docs: the reference site (`build`) and the rulebook coverage report (`coverage`).

Imports verify, emit, the language and the leaves, never app (ARCHITECTURE.md, "Layers")."""

"""The language: rulespec text -> syntax -> a resolved, checked IR (`pipeline.load`).

Imports only the leaves (`compiler.names`, `compiler.paths`, `compiler.diagnostics`) and the
runtime, never emit, verify, docs or app (ARCHITECTURE.md, "Layers")."""

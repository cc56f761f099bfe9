"""rulec: a rules compiler and verification suite for 18xx railroad games.

A house in rooms, each importing only the rooms below it (ARCHITECTURE.md, "Layers"):
`app` (the `rulec` command, `app.cli`), `docs` (IR -> site pages), `verify` (IR -> z3
proofs), `emit` (IR -> engine modules), `lang` (text -> syntax -> resolved, checked IR), and at
the bottom the leaves (`names`, `paths`, `diagnostics`, `progress`) and the `runtime` the
engines import.
"""

__version__ = "0.1.0"

"""rulec: a rules compiler and verification suite for 18xx railroad games.

Stages, each a module taking the previous stage's value: `parse` (text ->
syntax tree), `resolve` (syntax trees -> IR titles), `check` (IR ->
diagnostics), `emit` (IR -> engine modules), `verify` (IR -> z3 proofs),
`docs` (IR -> site pages). `cli` is the `rulec` command.
"""

__version__ = "0.1.0"

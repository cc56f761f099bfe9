"""The runtime every generated engine imports: `game.GameBase` and the primitives under it.

It imports nothing else of rulec (ARCHITECTURE.md, "Layers"): an engine in `generated/` needs
only this package.
"""

"""The commands: `rulec` (`cli`) and what only it runs (play, replay, simulate, impact, the
language server). Nothing below imports it (ARCHITECTURE.md, "Layers")."""

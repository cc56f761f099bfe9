"""Names made from printed names: a title's slug and its engine's module name.

A leaf: it imports nothing from rulec, so every room may use it (ARCHITECTURE.md, "Layers").
"""

from __future__ import annotations

import unicodedata


def slug(text: str) -> str:
    """'1880 Romania' -> '1880-romania'; 'Regatul României' -> 'regatul-romaniei'."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    out = []
    for ch in plain.lower():
        out.append(ch if ch.isalnum() else "-")
    return "-".join(part for part in "".join(out).split("-") if part)


def engine_name(title: str, variant: str | None = None) -> str:
    """The module name of a title's engine: t_1880_romania, t_1800__three_player."""
    name = "t_" + slug(title).replace("-", "_")
    if variant:
        name += "__" + slug(variant).replace("-", "_")
    return name

"""Saved studies on the reference site: `rulec simulate TITLE ... --out studies/NAME` saves a study
in the checkout (`study.json`, its SVG pictures, its own `index.md` and `index.html`), and
`rulec docs` shows each one the rulespecs have the title of.

The site's pages of a study (under `studies/`):

    studies/index.md          every saved study: its title, players, games, policy, seed
    studies/<name>/index.md   the study's page, written again from its `study.json`
                              (`study_page.markdown`), with a line linking its title
    studies/<name>/*.svg      its pictures, as saved (the site does not draw them again,
                              so `rulec docs` needs no matplotlib)

A study is a folder holding `study.json`; `<name>` is the folder's name. A study of a title or
variant the rulespecs do not have is left out (`rulec build PATH --out DIR` builds a site of other
rulespecs). The menu lists the studies under "Studies", each labelled by its title and name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from compiler import paths
from compiler.lang.pipeline import Loaded

#: Where a designer saves studies for the site: `rulec simulate ... --out studies/NAME`.
STUDIES = paths.ROOT / "studies"


@dataclass
class Study:
    """A saved study: its folder's name, its `study.json`, and its pictures (file name -> text)."""

    name: str
    data: dict
    pictures: dict[str, str]

    @property
    def title(self) -> str:
        """The display name of the title (or variant) it played."""
        study = self.data["statistics"]["study"]
        return f"{study['title']} ({study['variant']})" if study.get("variant") else study["title"]


def saved_studies(loaded: Loaded, folder: Path | None = None) -> list[Study]:
    """The studies saved under `folder` (studies/ by default) of the titles `loaded` has, by name.
    A folder without a readable `study.json` is no study."""
    folder = folder or STUDIES
    titles = {t.display_name for t in loaded.every_title()}
    out = []
    for path in sorted(folder.glob("*/study.json")) if folder.is_dir() else ():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            study = Study(path.parent.name, data,
                          {svg.name: svg.read_text(encoding="utf-8") for svg in sorted(path.parent.glob("*.svg"))})
            if study.title in titles:
                out.append(study)
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


def _label(study: Study) -> str:
    return f"{study.title}: {study.name}"


def add_pages(writer, pages: dict[str, str], nav: list, studies: list[Study]) -> None:
    """Add the studies' pages and pictures to `pages` (`Writer.pages()`) and a "Studies" menu to
    `nav`, before "Reports"."""
    from compiler.docs.model import Place
    from compiler.docs.render import code, esc, table
    from compiler.docs.study_page import markdown

    if not studies:
        return
    rows = []
    items: list = ["studies/index.md"]
    for study in studies:
        page = f"studies/{study.name}/index.md"
        text = markdown(study.data)
        head, _, rest = text.partition("\n")
        book = next((b for b in writer.site.books if b.title.display_name == study.title), None)
        of = writer.link(page, Place(book.index), esc(study.title)) if book is not None else esc(study.title)
        pages[page] = (f"{head}\n\nA study saved in `studies/{esc(study.name)}/` (`rulec simulate ... --out "
                       f"studies/{esc(study.name)}`) of {of}.\n{rest}")
        if not text.endswith("\n"):
            pages[page] += "\n"
        for name, svg in study.pictures.items():
            pages[f"studies/{study.name}/{name}"] = svg
        s = study.data["statistics"]
        run = s["study"]
        rows.append([writer.link("studies/index.md", Place(page), esc(study.name)), esc(study.title),
                     str(run["players"]), str(s["finished"]), code("/".join(run["policies"])), str(run["seed"])])
        items.append({_label(study): page})
    pages["studies/index.md"] = (
        "# Studies {#studies}\n\n"
        "Balance studies a designer saved: many games played by `rulec simulate TITLE --games K --policy "
        "random|greedy --out studies/NAME`, each with its win rates by seat, by opening privates and by first "
        "corporation, game length, end reasons, share prices and the bank's cash over time, and the invariant "
        "monitor's failures. `rulec docs` shows every study saved under `studies/`.\n\n"
        + table(["study", "title", "players", "games finished", "policy", "seed"], rows))
    at = next((i for i, entry in enumerate(nav) if isinstance(entry, dict) and "Reports" in entry), len(nav))
    nav.insert(at, {"Studies": items})

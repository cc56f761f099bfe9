"""The site's board pages: each title's market, phases and trains (with the timeline of phases and
rusting), and its map with the tile upgrades.

`BoardPages` is mixed into `pages.Writer`, whose `site`, `link` and `_boards` its methods use.
"""

from __future__ import annotations

from collections import defaultdict

from compiler.lang import syntax as s
from compiler.docs.maps import board_of, tile_set
from compiler.docs.model import Book, Place
from compiler.docs.render import clause_label, code, esc, humanize, picture, plural, short, str_prop, table, value_md
from compiler.docs.svg import market_cells, market_svg, zone_colours
from compiler.docs.topics import TOPICS
from compiler.emit.pieces import unparse
from compiler.lang.ir import Clause


class BoardPages:
    """The market page (market, phases, trains, timeline) and the map page of a book."""

    # ------------------------------------------------------------ pictures and tables

    def market(self, book: Book) -> Clause | None:
        markets = book.title.of_kind("market")
        return markets[0] if markets else None

    def market_picture(self, book: Book) -> str | None:
        market = self.market(book)
        if market is None or not isinstance(market.decl, s.Component):
            return None
        return market_svg(market.decl, f"{book.name}: {clause_label(market)}")

    def market_page(self, book: Book) -> str:
        page = book.tables
        out = ["# Market, phases and trains {#market-phases-trains}\n",
               self.link(page, Place(book.index), esc(book.name)) + "\n"]
        market = self.market(book)
        out.append("## Stock market {#stock-market}\n")
        if market is None:
            out.append("*This title has no market clause.*\n")
        else:
            decl = market.decl
            grid = market_cells(decl)
            out.append(f"{self.link(page, self.site.place(book, market.key), code(f'market {market.name}'))}: "
                       f"{plural(len(grid), 'row')}, {plural(sum(1 for row in grid for c in row if c), 'cell')}, "
                       f"{plural(sum(1 for row in grid for c in row if c and 'par' in c.zones), 'par cell')} "
                       "(outlined in red, marked P).\n")
            out.append(picture(f"{esc(book.name)}: {esc(clause_label(market))}", "market.svg", "market"))
            colours = zone_colours(grid)
            rows = [["par", "outlined in red", self._zone_text(book, "par", page)]]
            for zone, colour in colours.items():
                rows.append([esc(humanize(zone)), f'<span class="rulec-swatch" style="background:{colour}"></span> filled',
                             self._zone_text(book, zone, page)])
            out.append(table(["zone", "drawn", "meaning"], rows))
            extra = [p for p in decl.properties if p.name != "rows"]
            if extra:
                out.append(table(["market rule", "value"],
                                 [[esc(humanize(p.name)), _market_rule_md(p)] for p in extra]))
        out.append("## Phases {#phases}\n")
        phases = book.title.of_kind("phase")
        if not phases:
            out.append("*This title has no phase clauses.*\n")
        else:
            cols = ["on_train", "tiles", "train_limit", "operating_rounds", "events"]
            rows = []
            for clause in phases:
                decl = clause.decl
                cells = [self.link(page, self.site.place(book, clause.key), code(clause.name))
                         + (f" {esc(decl.title)}" if decl.title else "")]
                for col in cols:
                    prop = decl.get(col)
                    if prop is None:
                        cells.append("")
                    elif col == "tiles" and isinstance(prop.value, s.ListLit):
                        cells.append(" ".join(chip(unparse(i)) for i in prop.value.items))
                    else:
                        cells.append(value_md(prop.value, 80))
                others = [p for p in decl.properties if p.name not in cols]
                cells.append("; ".join(f"{esc(humanize(p.name))} {value_md(p.value, 60)}" for p in others))
                rows.append(cells)
            out.append(table(["phase", "starts on", "tiles", "train limit", "ORs", "events", "more"], rows))
        out.append("## Trains {#trains}\n")
        trains = book.title.of_kind("train")
        if not trains:
            out.append("*This title has no train clauses.*\n")
        else:
            cols = ["distance", "price", "count", "rusts_on", "obsolete_on"]
            rows = []
            for clause in trains:
                decl = clause.decl
                cells = [self.link(page, self.site.place(book, clause.key), code(clause.name))]
                for col in cols:
                    prop = decl.get(col)
                    cells.append(value_md(prop.value, 80) if prop is not None else "")
                others = [p for p in decl.properties if p.name not in cols and p.name != "summary"]
                cells.append("; ".join(f"{esc(humanize(p.name))} {value_md(p.value, 60)}" for p in others))
                rows.append(cells)
            out.append(table(["train", "distance", "price", "count", "rusts on", "obsolete on", "more"], rows))
            out.append(self.timeline(book, page))
        return "\n".join(out)

    def _zone_text(self, book: Book, zone: str, page: str) -> str:
        clause = book.title.get("zone", zone)
        if clause is None:
            return ""
        text = str_prop(clause.decl, "summary") or clause_label(clause)
        return self.link(page, self.site.place(book, clause.key), code(zone)) + " " + esc(short(text, 160))

    def timeline(self, book: Book, page: str) -> str:
        """Which train purchase starts each phase and which trains leave then."""
        rusts: dict[str, list[str]] = defaultdict(list)
        obsolete: dict[str, list[str]] = defaultdict(list)
        for clause in book.title.of_kind("train"):
            decl = clause.decl
            for prop_name, target in (("rusts_on", rusts), ("obsolete_on", obsolete)):
                prop = decl.get(prop_name)
                if prop is None:
                    continue
                values = prop.value.items if isinstance(prop.value, s.ListLit) else (prop.value,)
                for v in values:
                    if isinstance(v, s.Str):
                        target[v.value].append(clause.name)
        rows = []
        for clause in book.title.of_kind("phase"):
            decl = clause.decl
            on = decl.get("on_train")
            starters = []
            if on is not None:
                values = on.value.items if isinstance(on.value, s.ListLit) else (on.value,)
                starters = [v.value for v in values if isinstance(v, s.Str)]
            rusted = sorted({t for st in starters for t in rusts.get(st, [])})
            obs = sorted({t for st in starters for t in obsolete.get(st, [])})
            rows.append([
                self.link(page, self.site.place(book, clause.key), code(clause.name)),
                ", ".join(code(x) for x in starters) or "the start",
                ", ".join(code(x) for x in rusted),
                ", ".join(code(x) for x in obs),
            ])
        if not rows:
            return ""
        return ("### Timeline {#timeline}\n\nThe first purchase of a train starts a phase; "
                "trains whose `rusts_on` or `obsolete_on` names that train leave or become obsolete.\n\n"
                + table(["phase", "started by the first", "rusts", "becomes obsolete"], rows))

    # ------------------------------------------------------------ map and tiles

    def board(self, book: Book):
        """The book's map as the runtime reads it, or None (no map, or not readable yet)."""
        if book.slug not in self._boards:
            from compiler.emit.engines import engine_module

            try:
                module = engine_module(book.module)
            except (FileNotFoundError, ImportError, SyntaxError):
                self._boards[book.slug] = None
            else:
                self._boards[book.slug] = board_of(module)[0]
        return self._boards[book.slug]

    def map_page(self, book: Book, board) -> str:
        page = book.file("map.md")
        out = [f"# Map and tiles of {esc(book.name)} {{#map}}\n",
               self.link(page, Place(book.index), esc(book.name)) + "\n",
               "Drawn by rulec from the title's `hex`, `tile`, `tile_counts` and `upgrades` clauses, "
               "read as the engine reads them (hover a hex for its name and costs).\n",
               picture(f"The map of {esc(book.name)}", "map.svg", "map"),
               "## Hexes {#hexes}\n"]
        rows = []
        for h in sorted(board.hexes, key=lambda x: (len(x), x)):
            mh = board.hexes[h]
            key = ("hex", h)
            place = self.site.place(book, key)
            nodes = ", ".join(f"{n.kind} {n.revenue if isinstance(n.revenue, int) else '/'.join(str(v) for _, v in n.revenue)}"
                              for n in mh.tile.nodes)
            rows.append([self.link(page, place, code(h)), esc(mh.location or ""), esc(mh.tile.color),
                         esc(nodes), esc(mh.terrain or ""), str(mh.cost or "") + (f" / {mh.upgrade_cost}" if mh.upgrade_cost else ""),
                         esc(", ".join(c for c, _ in mh.homes)), esc(mh.reserved_for or "")])
        out.append(table(["hex", "name", "colour", "printed", "terrain", "cost", "homes", "reserved for"], rows))
        out.append("## Tile upgrades {#upgrades}\n")
        chart = "the title's upgrade chart" if board.upgrades is not None else (
            "derived by the runtime (next colour, same label, same cities and towns, the old track kept), "
            "as the title gives no chart")
        out.append(f"Each tile of the set with its copies, and a line to each tile it upgrades to: {chart}.\n")
        out.append(picture(f"Tile upgrades of {esc(book.name)}", "upgrades.svg", "upgrade chart"))
        rows = []
        names = tile_set(board)
        have = set(names)
        for n in names:
            count = board.counts.get(n)
            targets = [t for t in board.upgrade_targets(board.tiles[n]) if t in have]
            rows.append([code(n), esc(board.tiles[n].color), "unlimited" if count is None else str(count),
                         ", ".join(code(t) for t in targets)])
        out.append(table(["tile", "colour", "copies", "upgrades to"], rows))
        return "\n".join(out)


def _market_rule_md(prop) -> str:
    """A market property's value, in the words of the question it bears on where it has them."""
    if isinstance(prop.value, s.Name):
        for topic in TOPICS:
            if f"market.{prop.name}" in topic.related and prop.value.name in topic.values:
                return f"{code(prop.value.name)} — {esc(topic.values[prop.value.name])}"
    return value_md(prop.value, 200)


def chip(colour: str) -> str:
    return f'<span class="rulec-chip rulec-{esc(colour)}">{esc(colour)}</span>'

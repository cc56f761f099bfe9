"""A study's page: `rulec simulate --out DIR` writes `study.json`, `index.md` (Markdown an mkdocs
site can include, pictures beside it), `index.html` (the same page on its own) and the pictures,
SVG drawn by matplotlib (Agg): the win rate by seat with its interval, game length, and the
share prices and the bank's cash round by round (median and quartiles). The same study gives
the same bytes (no dates in the pictures, fixed ids)."""

from __future__ import annotations

import json
from pathlib import Path



def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def rate_text(rate: dict) -> str:
    """A rate with its 95% interval ("41.0% [35.2%, 47.1%]"), "-" for no games."""
    return f"{_pct(rate['rate'])} [{_pct(rate['ci95'][0])}, {_pct(rate['ci95'][1])}]" if rate["n"] else "-"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "rulec-simulate", "svg.fonttype": "none", "font.size": 9,
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def _save(fig, path: Path) -> None:
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")


def _band(plt, rows: list[dict], key: str, ylabel: str, path: Path) -> None:
    """Median and interquartile band of `key` (a spread) per round."""
    rows = [r for r in rows if r[key]["n"]]
    fig, ax = plt.subplots(figsize=(6.4, 2.8))
    if rows:
        x = [r["round"] for r in rows]
        ax.fill_between(x, [r[key]["q1"] for r in rows], [r[key]["q3"] for r in rows], alpha=0.3,
                        color="#4878a8", label="quartiles", linewidth=0)
        ax.plot(x, [r[key]["median"] for r in rows], color="#1f3f66", label="median")
        ax.legend(frameon=False)
    ax.set_xlabel("round (stock and operating rounds counted from the start)")
    ax.set_ylabel(ylabel)
    _save(fig, path)
    plt.close(fig)


def _seats(plt, seats: list[dict], path: Path) -> None:
    fig, ax = plt.subplots(figsize=(4.8, 2.6))
    rated = [s for s in seats if s["n"]]
    x = [s["seat"] for s in rated]
    rates = [s["rate"] for s in rated]
    errors = [[s["rate"] - s["ci95"][0] for s in rated], [s["ci95"][1] - s["rate"] for s in rated]]
    ax.bar(x, rates, color="#4878a8", yerr=errors, capsize=4)
    if seats:
        ax.axhline(1 / len(seats), color="#888888", linestyle="--", linewidth=1)
    ax.set_xticks(x)
    ax.set_xlabel("seat (seat 1 starts the game)")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    _save(fig, path)
    plt.close(fig)


def _lengths(plt, length: dict, path: Path) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 2.4))
    for ax, what in zip(axes, ("rounds", "actions")):
        q = length[what]
        if q["n"]:
            ax.bxp([{"med": q["median"], "q1": q["q1"], "q3": q["q3"], "whislo": q["min"], "whishi": q["max"],
                     "label": what}], showfliers=False)
        ax.set_ylabel(f"{what} per game")
    _save(fig, path)
    plt.close(fig)


def markdown(data: dict) -> str:
    """The page's Markdown (pictures by relative name)."""
    s, run, c = data["statistics"], data["run"], data["currency"]
    study = s["study"]
    policy = "/".join(study["policies"])
    lines = [f"# {data['title']}: {s['finished']} games, {study['players']} players, policy {policy}", "",
             f"Played by `rulec simulate` with seed {study['seed']} (game *i* has seed {study['seed']} + *i*, "
             f"the game `rulec play --seed` plays with the random policy). {s['finished']} games finished, "
             f"{s['failed']} failed; **{s['monitor_failures']} invariant monitor failures**. "
             f"Played on {run['workers']} Dask worker{'s' if run['workers'] != 1 else ''} in {run['seconds']} s.", "",
             "Win rates count a shared win as a share; intervals are 95% Wilson intervals.", "",
             "## Win rate by seat", "", "![win rate by seat](win_rate_by_seat.svg)", "",
             "| seat | games | win rate [95% interval] |", "|---|---|---|"]
    lines += [f"| {r['seat']} | {r['n']} | {rate_text(r)} |" for r in s["win_rate_by_seat"]]
    if len(s["by_policy"]) > 1:
        lines += ["", "## By policy", "", "| policy | players | mean value | median value | win rate |",
                  "|---|---|---|---|---|"]
        lines += [f"| {p} | {v['players']} | {c}{v['value'].get('mean', 0):.0f} | {c}{v['value'].get('median', 0):g} "
                  f"| {rate_text(v['win_rate'])} |" for p, v in s["by_policy"].items()]
    for key, heading, column in (
            ("win_rate_by_opening_privates", "By the privates a player opened with",
             "privates held when the first operating round starts"),
            ("win_rate_by_private", "By each private a player opened with", "private"),
            ("win_rate_by_first_corporation", "By the first corporation a player started",
             "first corporation of which he was the first president")):
        lines += ["", f"## {heading}", "", f"| {column} | players | win rate [95% interval] |", "|---|---|---|"]
        lines += [f"| {k} | {r['n']} | {rate_text(r)} |" for k, r in s[key].items()]
    lines += ["", "## Game length", "", "![game length](game_length.svg)", "",
              "| per game | median | quartiles | least | most |", "|---|---|---|---|---|"]
    for what in ("rounds", "actions"):
        q = s["length"][what]
        if q["n"]:
            lines.append(f"| {what} | {q['median']:g} | {q['q1']:g}–{q['q3']:g} | {q['min']} | {q['max']} |")
    lines += ["", "## End reasons", "", "| end | games |", "|---|---|"]
    lines += [f"| {k.replace('_', ' ')} | {v} |" for k, v in s["end_reasons"].items()]
    lines += ["", "## Over time", "",
              "At the start of each round, over the games still running: the share price of every corporation "
              "that has one, and the bank's cash.", "",
              "![share prices by round](share_price.svg)", ""]
    if any(r["bank_cash"]["n"] for r in s["over_time"]):
        lines += ["![bank cash by round](bank_cash.svg)", ""]
    if s["failures"]:
        lines += ["## Failures", ""] + [f"- game {f['index']} (seed {f['seed']}), action {f['action_number']}: "
                                         f"{f['error']}" for f in s["failures"]] + [""]
    return "\n".join(lines)


def write_page(data: dict, out: Path) -> None:
    """Write the study's page, pictures and JSON into `out` (created)."""
    import markdown as md

    plt = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    s = data["statistics"]
    _seats(plt, s["win_rate_by_seat"], out / "win_rate_by_seat.svg")
    _lengths(plt, s["length"], out / "game_length.svg")
    _band(plt, s["over_time"], "share_price", f"share price ({data['currency'] or 'currency'})",
          out / "share_price.svg")
    if any(r["bank_cash"]["n"] for r in s["over_time"]):
        _band(plt, s["over_time"], "bank_cash", f"bank cash ({data['currency'] or 'currency'})",
              out / "bank_cash.svg")
    text = markdown(data)
    (out / "index.md").write_text(text, encoding="utf-8")
    body = md.markdown(text, extensions=["tables"])
    (out / "index.html").write_text(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>"
        f"{data['title']} study</title>\n<style>body{{font-family:sans-serif;max-width:52em;margin:auto}}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}</style></head>\n"
        f"<body>\n{body}\n</body></html>\n", encoding="utf-8")
    (out / "study.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

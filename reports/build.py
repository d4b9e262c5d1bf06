"""``cardmc report``: run the default studies and write a self-contained report.

The report is built in a temporary folder beside the target and moved into
place only when complete, so an interrupted run leaves no half-written
``index.html``. An existing folder is replaced only if it is a previous
cardmc report (it holds ``.cardmc-report``) or with ``force``.
"""

from __future__ import annotations

import html
import importlib
import importlib.resources
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from cardmc import registry
from cardmc.display import readable
from cardmc.registry import Study, UsageError
from cardmc.reports.section import Section

MARKER = ".cardmc-report"
# beside each game's study (its spec's ``study``): the advice for one hand, deals per hand and choice in
# --quick and by default (reports/yourhand.py caps them)
YOURHAND = Study("yourhand", 2_000, 20_000)
# beside them: every game's ladder (reports/ladder.py), games a pair of plain policies in --quick and by default
LADDER = Study("ladder", 400, 20_000)


def studies() -> list[Study]:
    """The report's studies: every game's in order of their module's name, then the ladders and your hand's."""
    games = [registry.get(game).study for game in registry.GAMES]
    return sorted([s for s in games if s is not None], key=lambda s: s.module) + [LADDER, YOURHAND]


def build_report(
    out="cardmc-report",
    games: int | None = None,
    seed: int = 1,
    quick: bool = False,
    force: bool = False,
    progress: bool = True,
) -> Path:
    target = Path(out)
    if target.exists() and not (target.is_dir() and (target / MARKER).exists()) and not force:
        raise UsageError(f"{target} exists and is not a cardmc report; use --force to replace it")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise UsageError(f"cannot write the report into {parent}: not a writable folder")
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    try:
        from cardmc.warm import warm

        # a cold cache: the games' kernels compile side by side, one process per core
        warm(
            registry.GAMES,
            only_cold=True,
            log=(lambda note: print(f"cardmc: {note}", file=sys.stderr, flush=True)) if progress else None,
        )
        sections = []
        chosen = studies()
        started = time.perf_counter()
        for i, study in enumerate(chosen, 1):
            name, n = study.module, games or (study.quick if quick else study.full)
            if progress:
                print(f"[{i}/{len(chosen)}] {name}: {n:,} games, seed {seed}", file=sys.stderr, flush=True)
            module = importlib.import_module(f"cardmc.reports.{name}")
            began = time.perf_counter()
            sections.append(module.study(tmp, games=n, seed=seed, progress=progress))
            if progress:
                print(
                    f"[{i}/{len(chosen)}] {name}: {time.perf_counter() - began:.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
        elapsed = time.perf_counter() - started
        write_data(tmp, sections)
        command = (
            "cardmc report"
            + (" --quick" if quick else "")
            + (f" --games {games}" if games else "")
            + (f" --seed {seed}")
        )
        if progress:
            print(f"studies took {elapsed:.0f} s", file=sys.stderr, flush=True)
        (tmp / "report.md").write_text(markdown(sections, command))
        (tmp / "index.html").write_text(page(sections, command))
        (tmp / "RULES.md").write_bytes(
            importlib.resources.files("cardmc.docs").joinpath("RULES.md").read_bytes()
        )
        from cardmc import __version__

        (tmp / MARKER).write_text(
            json.dumps(
                {"version": __version__, "seed": seed, "quick": quick, "games": games, "command": command}
            )
        )
        replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target / "index.html"


def replace(new: Path, target: Path) -> None:
    """Move the finished report into place, then remove the old one."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, old)
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink()


def write_data(folder: Path, sections: list[Section]) -> None:
    data = folder / "data"
    data.mkdir()
    for s in sections:
        for name, table in s.data.items():
            table.to_csv(data / f"{name}.csv")
        for name, frame in s.frames.items():
            frame.to_parquet(data / f"{name}.parquet", index=False)


def _md_table(table: pd.DataFrame) -> str:
    t = readable(table).reset_index()
    cols = [str(c) for c in t.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in t.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _cell(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def markdown(sections: list[Section], command: str) -> str:
    parts = [
        "# cardmc strategy report",
        "",
        f"Made by `{command}`. Every estimate is shown as "
        "`estimate [95% CI]`; proportions use Wilson intervals. The data behind every table and chart is "
        "in `data/`. The rules played, every option and its default: [RULES.md](RULES.md).",
        "",
    ]
    parts += (
        ["## Contents", ""]
        + [
            f"{i}. [{s.title}](#{s.title.lower().replace(' ', '-')}): {s.question}"
            for i, s in enumerate(sections, 1)
        ]
        + [""]
    )
    for s in sections:
        parts += [f"## {s.title}", "", f"**{s.question}**", "", s.answer, "", f"Sample: {s.sample}.", ""]
        for name, caption, table in s.tables:
            parts += [f"### {name.replace('_', ' ').capitalize()}", "", caption, "", _md_table(table), ""]
        for name, caption, files in s.charts:
            parts += [f"![{caption}]({files[0]})", "", f"*{caption}* ([SVG]({files[1]}))", ""]
        parts += ["Reproduce:", "", "```bash", *s.commands, "```", ""]
    return "\n".join(parts)


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45} h1{font-size:1.8em} h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;font-size:.9em;margin:.6em 0} th,td{border:1px solid #ccc;padding:.25em .6em;
text-align:right} th{background:#f4f4f4} .answer{font-size:1.1em;background:#eef5ff;padding:.6em 1em;
border-left:4px solid #1f77b4} pre{background:#f6f6f6;padding:.6em;overflow-x:auto} img{max-width:100%}
.caption{color:#555;font-size:.9em} nav li{margin:.2em 0}
"""


def page(sections: list[Section], command: str) -> str:
    esc = html.escape
    toc = "".join(f'<li><a href="#{s.game}">{esc(s.title)}</a>: {esc(s.question)}</li>' for s in sections)
    body = []
    for s in sections:
        body.append(
            f'<section id="{s.game}"><h2>{esc(s.title)}</h2><p><b>{esc(s.question)}</b></p>'
            f'<p class="answer">{esc(s.answer)}</p><p class="caption">Sample: {esc(s.sample)}.</p>'
        )
        for name, caption, table in s.tables:
            body.append(
                f"<h3>{esc(name.replace('_', ' ').capitalize())}</h3><p class='caption'>{esc(caption)}</p>"
                + readable(table).to_html(float_format=lambda v: f"{v:.4g}", border=0)
            )
        for name, caption, files in s.charts:
            body.append(
                f'<figure><img src="{files[0]}" alt="{esc(caption)}"><figcaption class="caption">'
                f'{esc(caption)} (<a href="{files[1]}">SVG</a>)</figcaption></figure>'
            )
        cmds = esc("\n".join(s.commands))
        body.append(f"<p>Reproduce:</p><pre>{cmds}</pre></section>")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>cardmc strategy report</title>"
        f"<style>{CSS}</style></head><body><h1>cardmc strategy report</h1>"
        f"<p>Made by <code>{esc(command)}</code>. Every estimate is shown as "
        "<i>estimate [95% CI]</i>; proportions use Wilson intervals. The data behind every table and chart "
        "is in <a href='data/'>data/</a>. The rules played, every option and its default: "
        "<a href='RULES.md'>RULES.md</a>.</p>"
        f"<nav><h2>Contents</h2><ol>{toc}</ol></nav>{''.join(body)}</body></html>"
    )

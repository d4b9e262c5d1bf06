"""``cardmc report``: a whole quick report, its links, its CIs and its safety."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from cardmc.registry import UsageError
from cardmc.reports import build

DECIMAL = re.compile(r"^-?\d+\.\d+%?$")
WITH_CI = re.compile(r"^-?[\d.]+%? \[-?[\d.]+%?, -?[\d.]+%?\]$")


class Page(HTMLParser):
    """Collects links, images and table cells (with their column header)."""

    def __init__(self):
        super().__init__()
        self.links, self.images, self.cells, self.headers = [], [], [], []
        self._cell = None
        self._row = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a["src"])
        if tag in ("td", "th"):
            self._cell = ""
        if tag == "tr":
            self._row = []
        if tag == "table":
            self.headers = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append((tag, self._cell.strip()))
            self._cell = None
        if tag == "tr":
            if all(t == "th" for t, _ in self._row) and not self.headers:
                self.headers = [c for _, c in self._row]
            else:
                tds = [c for t, c in self._row if t == "td"]
                ths = len(self._row) - len(tds)
                for i, c in enumerate(tds):
                    j = ths + i
                    self.cells.append((self.headers[j] if j < len(self.headers) else "", c))

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("r") / "report"
    index = build.build_report(out=out, quick=True, seed=3, progress=False)
    return index.parent


def test_every_study_is_in_the_report(report):
    page = (report / "index.html").read_text()
    for study in build.studies():
        assert f'id="{study.module}"' in page
    assert (report / "report.md").is_file() and (report / build.MARKER).is_file()


def test_the_report_carries_the_rulebook_it_links(report):
    from pathlib import Path

    rulebook = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"
    assert (report / "RULES.md").read_bytes() == rulebook.read_bytes()
    assert "href='RULES.md'" in (report / "index.html").read_text()
    assert "](RULES.md)" in (report / "report.md").read_text()


def test_every_image_and_link_exists(report):
    p = Page()
    p.feed((report / "index.html").read_text())
    assert p.images, "the report has charts"
    for ref in p.images + [x for x in p.links if not x.startswith(("#", "http"))]:
        assert (report / ref).exists(), ref
    for png in report.glob("*.png"):
        assert png.with_suffix(".svg").is_file()
    md = (report / "report.md").read_text()
    for ref in re.findall(r"\]\(([^)#]+)\)", md):
        assert (report / ref).exists(), ref
    assert list((report / "data").glob("*.csv")) and list((report / "data").glob("*.parquet"))


def test_every_estimate_has_its_ci(report):
    p = Page()
    p.feed((report / "index.html").read_text())
    bare = [(h, c) for h, c in p.cells if DECIMAL.match(c) and h != "exact"]
    assert not bare, bare[:10]
    assert sum(bool(WITH_CI.match(c)) for _, c in p.cells) > 50
    for section in re.split(r"<section ", (report / "index.html").read_text())[1:]:
        assert "Reproduce:" in section and ("--seed 3" in section or "seed=3" in section)


def test_the_differenzler_section_shows_its_stored_solved_run(report):
    """Declarations against perfect play come from the stored run, named by its own command and seed."""
    from cardmc.experiments.solved import read_stored

    facts = read_stored(game="differenzler")[1]
    page = (report / "index.html").read_text()
    section = page.split('<section id="differenzler">', 1)[1].split("</section>", 1)[0]
    assert "every hand seen" in section and f"{facts['deals']:,} deals" in section
    assert facts["command"] in section
    assert (report / "data" / "differenzler_solved_declarations.csv").is_file()


def test_every_study_shows_its_findings_under_strong_play(report):
    """Each game's section says what held and moved under the learned player, and writes its tables."""
    page = (report / "index.html").read_text()
    for game, table in (
        ("schieber", "schieber_strong_solved"),
        ("differenzler", "differenzler_strong_penalty"),
        ("english_jazz", "english_jazz_strong_sweeps"),
        ("norwegian_jazz", "norwegian_jazz_strong_sixth_deal"),
    ):
        section = page.split(f'<section id="{game}">', 1)[1].split("</section>", 1)[0]
        assert "Under strong play" in section, game
        assert (report / "data" / f"{table}.csv").is_file(), table


def test_same_seed_same_data(report, tmp_path):
    again = build.build_report(out=tmp_path / "again", quick=True, seed=3, progress=False).parent
    for f in sorted((report / "data").iterdir()):
        assert f.read_bytes() == (again / "data" / f.name).read_bytes(), f.name
    assert (report / "report.md").read_text() == (again / "report.md").read_text()


def test_a_folder_that_is_not_a_report_is_kept(tmp_path):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("precious")
    with pytest.raises(UsageError, match="not a cardmc report"):
        build.build_report(out=target, quick=True, progress=False)
    assert (target / "notes.txt").read_text() == "precious"


def test_an_interrupted_report_leaves_nothing_half_written(tmp_path, monkeypatch):
    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    name = build.studies()[-1].module
    import importlib

    monkeypatch.setattr(importlib.import_module(f"cardmc.reports.{name}"), "study", boom)
    with pytest.raises(KeyboardInterrupt):
        build.build_report(out=tmp_path / "r", quick=True, progress=False)
    assert not (tmp_path / "r").exists()
    assert [p.name for p in tmp_path.iterdir()] == []


def test_a_previous_report_is_replaced(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "studies", lambda: [build.Study("differenzler", 300, 300)])
    first = build.build_report(out=tmp_path / "r", progress=False).parent
    (first / "stale.txt").write_text("old")
    second = build.build_report(out=tmp_path / "r", progress=False).parent
    assert second == first and not (second / "stale.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


def test_report_cli_refuses_and_explains(tmp_path):
    import subprocess
    import sys

    (tmp_path / "x").write_text("a file")
    done = subprocess.run(
        [sys.executable, "-m", "cardmc.cli", "report", "--out", str(tmp_path / "x"), "--quick"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "not a cardmc report" in done.stderr and "Traceback" not in done.stderr
    assert (tmp_path / "x").read_text() == "a file"

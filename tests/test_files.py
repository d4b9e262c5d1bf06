"""The one atomic writer: a finished file or none, never half of one."""

from __future__ import annotations

import os

import pytest

from cardmc import files
from cardmc.registry import UsageError


def test_a_file_appears_only_when_complete(tmp_path):
    target = tmp_path / "t.txt"
    with files.atomic(target) as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".t.txt.") and files.is_temporary(tmp.name)
        tmp.write_text("done")
        assert not target.exists()
    assert target.read_text() == "done" and os.listdir(tmp_path) == ["t.txt"]
    assert target.stat().st_mode & 0o777 == files.FILE_MODE


def test_a_failure_leaves_nothing_and_the_old_file_as_it_was(tmp_path):
    target = tmp_path / "t.txt"
    with pytest.raises(ZeroDivisionError):
        with files.atomic(target) as tmp:
            tmp.write_text("half")
            1 / 0
    assert os.listdir(tmp_path) == []
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with files.atomic(target, force=True) as tmp:
            tmp.write_text("half")
            raise KeyboardInterrupt
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["t.txt"]


def test_existing_files_need_force_and_missing_folders_are_named(tmp_path):
    target = tmp_path / "t.txt"
    target.write_text("old")
    with pytest.raises(UsageError, match="already exists"):
        with files.atomic(target):
            pass
    files.write_text(target, "new")
    assert target.read_text() == "new"
    with pytest.raises(UsageError, match="does not exist"):
        files.write_text(tmp_path / "no" / "t.txt", "x")
    with pytest.raises(UsageError, match="is a folder"):
        files.write_text(tmp_path, "x")


def test_a_link_is_replaced_not_followed(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    link = tmp_path / "link.txt"
    link.symlink_to(outside)
    files.write_text(link, "mine")
    assert outside.read_text() == "keep" and not link.is_symlink() and link.read_text() == "mine"

"""Report folders are replaced whole; one run per folder (issue 29)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hexdojo.agents import folders
from hexdojo.agents.folders import (
    FolderInUse,
    WriteFailed,
    check_out_folder,
    folder_lock,
    lock_path,
    replacing_folder,
    report_folder,
)
from tests.folders_kit import folder_held_elsewhere


def _old_report(out: Path) -> None:
    out.mkdir()
    (out / "results.json").write_text("old")
    (out / "report.html").write_text("old")


def _contents(out: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(out.iterdir()) if p.is_file()}


def test_new_report_replaces_the_old_and_keeps_the_users_files(tmp_path):
    out = tmp_path / "rep"
    _old_report(out)
    (out / "notes.txt").write_text("mine")
    (out / "tactics").mkdir()
    with replacing_folder(out, owns=["tactics"]) as tmp:
        assert tmp.parent == out.parent and tmp != out
        (tmp / "results.json").write_text("new")
        (tmp / "report.html").write_text("new")
    assert _contents(out) == {"notes.txt": "mine", "report.html": "new", "results.json": "new"}
    assert not (out / "tactics").exists()  # an older report's part: not mixed in
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]  # no temp folder left


@pytest.mark.parametrize("fault", [KeyboardInterrupt, SystemExit,
                                   lambda: OSError(errno.ENOSPC, "No space left on device")])
def test_an_interrupted_write_leaves_the_old_report_whole(tmp_path, fault):
    out = tmp_path / "rep"
    _old_report(out)
    with pytest.raises((KeyboardInterrupt, SystemExit, OSError)):
        with replacing_folder(out) as tmp:
            (tmp / "results.json").write_text("new")
            raise fault()
    assert _contents(out) == {"report.html": "old", "results.json": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]


def test_enospc_names_the_file_and_what_was_kept(tmp_path, monkeypatch):
    out = tmp_path / "rep"
    _old_report(out)
    with pytest.raises(WriteFailed) as got:
        with report_folder(out, "tournament") as tmp:
            (tmp / "results.json").write_text("new")
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp / "fights.csv"))
    msg = str(got.value)
    assert "\n" not in msg and "No space left" in msg
    assert msg.startswith(f"{out / 'fights.csv'}:")  # where it was going, not the temp name
    assert "left as it was" in msg
    assert _contents(out) == {"report.html": "old", "results.json": "old"}
    assert not lock_path(out).exists()


def test_a_kill_9_mid_write_leaves_the_old_report_and_the_next_run_cleans_up(tmp_path):
    out = tmp_path / "rep"
    _old_report(out)
    code = textwrap.dedent(f"""
        import os
        from hexdojo.agents.folders import replacing_folder
        with replacing_folder({str(out)!r}) as tmp:
            (tmp / "results.json").write_text("new")
            os.kill(os.getpid(), 9)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert proc.returncode == -9
    assert _contents(out) == {"report.html": "old", "results.json": "old"}
    assert len(list(tmp_path.iterdir())) == 2  # the dead run's temp folder
    with replacing_folder(out) as tmp:
        (tmp / "results.json").write_text("new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_a_run_killed_between_the_two_renames_gets_its_old_report_back(tmp_path):
    out = tmp_path / "rep"
    _old_report(out)
    os.rename(out, tmp_path / ".rep.old-999999999")  # no such pid
    with replacing_folder(out) as tmp:
        assert _contents(out) == {"report.html": "old", "results.json": "old"}
        (tmp / "results.json").write_text("new")
    assert _contents(out) == {"report.html": "old", "results.json": "new"}


def test_without_the_exchange_call_the_swap_still_works(tmp_path, monkeypatch):
    monkeypatch.setattr(folders, "_exchange", lambda a, b: False)
    out = tmp_path / "rep"
    _old_report(out)
    with replacing_folder(out) as tmp:
        (tmp / "results.json").write_text("new")
    assert _contents(out) == {"report.html": "old", "results.json": "new"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_bad_output_folders_are_refused_before_any_work(tmp_path, monkeypatch):
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        check_out_folder(tmp_path / "f")
    with pytest.raises(ValueError, match="is a file"):
        check_out_folder(tmp_path / "f" / "sub")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="current folder"):
        check_out_folder(Path("."))
    monkeypatch.setattr(os, "access", lambda p, mode: False)  # a read-only folder (as root)
    with pytest.raises(ValueError, match="permission denied") as got:
        check_out_folder(tmp_path / "new" / "deeper")
    assert str(tmp_path) in str(got.value)


def test_a_second_run_on_a_folder_in_use_is_refused_naming_the_other(tmp_path):
    out = tmp_path / "run"
    with folder_held_elsewhere(out, "train") as other:
        with pytest.raises(FolderInUse) as got:
            with folder_lock(out, "tournament"):
                pass
        msg = str(got.value)
        assert "\n" not in msg and f"pid {other.pid}" in msg and "hexdojo train" in msg
    with folder_lock(out, "tournament"):  # free again
        pass
    assert not lock_path(out).exists()


def test_a_stale_lock_is_taken_over_with_a_warning(tmp_path):
    out = tmp_path / "run"
    lock_path(out).write_text('{"pid": 999999999, "command": "train"}')
    said: list[str] = []
    with folder_lock(out, "run", warn=said.append) as path:
        assert '"command": "run"' in path.read_text()
    assert len(said) == 1 and "999999999" in said[0] and "no longer running" in said[0]


def test_a_symlinked_report_folder_is_replaced_where_it_points(tmp_path):
    real = tmp_path / "real"
    _old_report(real)
    link = tmp_path / "rep"
    link.symlink_to(real)
    with replacing_folder(link) as tmp:
        (tmp / "results.json").write_text("new")
    assert link.is_symlink() and (link / "results.json").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real", "rep"]


def test_the_new_folder_has_the_usual_mode_or_the_old_ones(tmp_path):
    mask = os.umask(0o022)
    try:
        with replacing_folder(tmp_path / "new") as tmp:
            (tmp / "a").write_text("x")
        assert (tmp_path / "new").stat().st_mode & 0o777 == 0o755  # not mkdtemp's 0700
        (tmp_path / "new").chmod(0o750)
        with replacing_folder(tmp_path / "new") as tmp:
            (tmp / "a").write_text("y")
        assert (tmp_path / "new").stat().st_mode & 0o777 == 0o750
    finally:
        os.umask(mask)

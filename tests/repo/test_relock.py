"""scripts/relock.py (issue 32): one script recomputes every pinned lock, prints old -> new
and, with --write, puts the new values into the test files, leaving every other byte."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from ..scripts_kit import load_script

FAKE = '''"""A test file with pins."""

#: a comment above
PINNED = ("aaaa", 1)  # a comment after
UNTOUCHED = "keep me"
WIDE = {"one": ("0123456789abcdef", 1)}
'''


@pytest.fixture(scope="module")
def relock():
    return load_script("relock")


def _fake(relock, tmp_path: Path, value, constant: str = "PINNED"):
    (tmp_path / "test_fake.py").write_text(FAKE, encoding="utf-8")
    return (relock.Lock("fake", "test_fake.py", constant, lambda: value),)


def test_check_reports_a_moved_pin_and_writes_nothing(relock, tmp_path, capsys) -> None:
    locks = _fake(relock, tmp_path, ("bbbb", 2))
    assert relock.main(["--check", "--tests-dir", str(tmp_path)], locks) == 1
    out = capsys.readouterr().out
    assert "CHANGED" in out and "(aaaa, 1) -> (bbbb, 2)" in out and "1 of 1 locks moved" in out
    assert (tmp_path / "test_fake.py").read_text(encoding="utf-8") == FAKE


def test_write_replaces_only_the_value_then_check_passes(relock, tmp_path, capsys) -> None:
    locks = _fake(relock, tmp_path, ("bbbb", 2))
    assert relock.main(["--write", "--tests-dir", str(tmp_path)], locks) == 0
    text = (tmp_path / "test_fake.py").read_text(encoding="utf-8")
    assert text == FAKE.replace('("aaaa", 1)', '("bbbb", 2)')
    assert relock.main(["--check", "--tests-dir", str(tmp_path)], locks) == 0
    assert list(tmp_path.glob(".*.tmp")) == []  # the atomic write left no temporary file
    assert "unchanged" not in capsys.readouterr().out.split("locks moved")[-1]


def test_a_wide_value_is_wrapped_and_reads_back_equal(relock, tmp_path) -> None:
    value = {f"scene_{k}": (f"{k:016x}", 300 + k) for k in range(6)}
    locks = _fake(relock, tmp_path, value, "WIDE")
    assert relock.main(["--write", "--tests-dir", str(tmp_path)], locks) == 0
    text = (tmp_path / "test_fake.py").read_text(encoding="utf-8")
    assert max(len(line) for line in text.splitlines()) <= 110
    tree = ast.parse(text)
    got = next(ast.literal_eval(n.value) for n in tree.body
               if isinstance(n, ast.Assign) and n.targets[0].id == "WIDE")
    assert got == value and 'UNTOUCHED = "keep me"' in text


def test_a_missing_pin_is_one_line(relock, tmp_path, capsys) -> None:
    locks = _fake(relock, tmp_path, "x", "NOT_THERE")
    assert relock.main(["--tests-dir", str(tmp_path)], locks) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "test_fake.py: no module-level constant NOT_THERE" in err


def test_an_unknown_lock_name_is_refused(relock, capsys) -> None:
    with pytest.raises(SystemExit):
        relock.main(["--only", "enigne_lock"])
    assert "unknown lock enigne_lock; allowed:" in capsys.readouterr().err


def test_every_lock_names_a_pinned_literal_of_the_real_tests(relock) -> None:
    """The table of locks stays true to the tests: each constant exists and is a literal."""
    assert len(relock.LOCKS) >= 9
    for lock in relock.LOCKS:
        path = relock.pinned_file(relock.TESTS, lock.file)
        assert relock.read_pin(path, lock.constant) is not None, lock.name


@pytest.mark.slow
def test_a_real_lock_detects_a_changed_pin_in_a_copy(relock, tmp_path, capsys) -> None:
    """The agents' small fingerprint, recomputed for real: the real pin is unchanged, a copy
    with a wrong pin is caught and written back to the real value."""
    real = relock.pinned_file(relock.TESTS, "test_agents_fingerprint.py")
    assert relock.main(["--check", "--only", "agents_small"]) == 0
    copy = tmp_path / real.name
    shutil.copy(real, copy)
    pinned = relock.read_pin(real, "SMALL")
    copy.write_text(real.read_text(encoding="utf-8").replace(pinned, "0" * 64), encoding="utf-8")
    assert relock.main(["--check", "--only", "agents_small", "--tests-dir", str(tmp_path)]) == 1
    assert f"000000000000... -> {pinned[:12]}..." in capsys.readouterr().out
    assert relock.main(["--write", "--only", "agents_small", "--tests-dir", str(tmp_path)]) == 0
    assert copy.read_text(encoding="utf-8") == real.read_text(encoding="utf-8")

"""The CLI's usage errors come as the README's one line ``error: ...`` (issue 17), not
Typer's boxed message, through the ``hexdojo`` entry point (``cli.main``)."""

from __future__ import annotations

import pytest

from hexdojo.agents.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    return int(exc.value.code or 0), err


@pytest.mark.parametrize("argv, needle", [
    (["tournament", "random", "greedy", "-n", "0"],
     "'--fights' / '-n': Input should be greater than or equal to 1"),
    (["tournament", "random", "greedy", "--games", "3"], "No such option: --games"),
    (["tournament"], "Missing argument 'agents'"),
    (["nosuch"], "No such command 'nosuch'"),
    (["tournament", "random", "greedy", "-j", "0"], "'--workers' / '-j'"),
])
def test_usage_errors_are_one_line(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(argv, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
    assert "╭" not in err and "Traceback" not in err


def test_out_pointing_at_a_file_says_so_before_any_fight(tmp_path, capsys) -> None:
    f = tmp_path / "results.txt"
    f.write_text("keep me\n")
    code, err = run(["tournament", "random", "greedy", "-n", "2", "-o", str(f)], capsys)
    assert code == 2 and f"'{f}' is a file; give a folder" in err
    assert len(err.strip().splitlines()) == 1 and f.read_text() == "keep me\n"


def test_library_errors_and_success_keep_their_exit_status(tmp_path, capsys) -> None:
    code, err = run(["tournament", "nosuchagent", "greedy"], capsys)
    assert code == 2 and err.startswith("error: unknown agent 'nosuchagent'")
    code, _ = run(["demo", "--help"], capsys)
    assert code == 0

"""`hexdojo --version` names the package version and the shipped rule set's id (issue 16)."""

from __future__ import annotations

from importlib.metadata import version

from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.envs.rules import load_tables


def test_version_names_package_and_rules():
    r = CliRunner().invoke(app, ["--version"])
    assert r.exit_code == 0
    assert r.output.strip() == f"hexdojo {version('hexdojo')} (rules {load_tables().id})"

"""The `replicability` command: its version, and the install hint of the commands that need the [book] extra."""

import sys

import pytest

import replicability
from replicability.cli import main


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"replicability {replicability.__version__}\n"

@pytest.mark.parametrize("command", [["run", "nb.ipynb"], ["reproduce"]])
def test_commands_without_the_book_extra_say_how_to_install_it(command, monkeypatch):
    monkeypatch.setitem(sys.modules, "papermill", None)  # as if papermill were not installed
    message = r"needs the \[book\] extra: pip install 'replicability\[book\]' \(missing: papermill\)"
    with pytest.raises(SystemExit, match=message):
        main(command)


# -- replicability compare -------------------------------------------------------------------

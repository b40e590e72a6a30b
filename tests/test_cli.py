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


# -- replicability reproduce: what goes with what ----------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["--store", "s"], "--store, --backend and --n-jobs go with --experiments FILE"),
    (["--slice", "0/2", "--backend", "joblib"], "--store, --backend and --n-jobs go with --experiments FILE"),
    (["--join", "--n-jobs", "2"], "--store, --backend and --n-jobs go with --experiments FILE"),
    (["-p", "scale", "quick"], "-p goes with --slice I/N or --join"),
    (["--slice", "0/2", "--join"], "argument --join: not allowed with argument --slice"),
])
def test_reproduce_refuses_options_that_do_not_go_together(args, message, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["reproduce", *args])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


# -- replicability compare -------------------------------------------------------------------

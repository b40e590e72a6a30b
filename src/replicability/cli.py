"""Command line: compare two learners on a data file, run a notebook with new parameters, recompute results, get data.

``replicability compare`` is the practitioner's comparison
(:mod:`replicability.comparison.command`); ``replicability run`` and ``replicability
reproduce`` execute the book's notebooks (:mod:`replicability.report.notebooks`);
``replicability data fetch-uci`` downloads the UCI files (:mod:`replicability.sources.uci_fetch`);
``replicability reproduce --slice I/N`` and ``--join`` run an array job's task and
its join over the notebooks (``report/book_slices.py``), over experiments with
``--experiments FILE`` (:mod:`replicability.engine.slices`). This
module only builds the command line and dispatches; each command's module is loaded
when the command runs, so ``replicability --version`` loads neither scikit-learn nor
papermill. Errors in the command line or its inputs are one line on standard error,
exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__, comparison, report

__all__ = ["main"]


def main(argv=None):
    """Entry point of the ``replicability`` command."""
    parser = argparse.ArgumentParser(prog="replicability", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="execute notebooks with papermill")
    run.add_argument("notebooks", nargs="+", type=Path)
    run.add_argument(
        "-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
        help="set a parameter (Python literal or string), once each; checked against its declared range",
    )
    run.add_argument("-o", "--output", type=Path,
                     help="output notebook (one input only; not the input, not in data/, notebooks/ or book/); "
                          "default with parameters: runs/<notebook>-<hash>/")
    run.add_argument("--list-parameters", action="store_true",
                     help="list each parameter's type, default, allowed values and meaning; execute nothing")
    reproduce = commands.add_parser("reproduce", help="recompute results at paper scale")
    reproduce.add_argument("--notebooks", type=Path, nargs="+", default=[Path("notebooks")],
                           help="folders (notebooks in them and one level below) or notebook files")
    reproduce.add_argument("--since", metavar="TIME",
                           help="recompute only results created before this UTC time (resume an interrupted run)")
    jobs = reproduce.add_argument_group(
        "array jobs", "the notebooks' pending results (or --experiments) computed in slices on many machines, "
                      "then joined; the executed notebooks are discarded")
    share = jobs.add_mutually_exclusive_group()
    share.add_argument("--slice", metavar="I/N",
                       help="compute the pending results of share I (from 0) of N of the notebooks "
                            "(with --experiments: slice I of N of every pending experiment)")
    share.add_argument("--join", action="store_true", help="verify what the slices computed (join the experiments)")
    jobs.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                      help="with --slice/--join: a parameter of every notebook (e.g. -p scale quick)")
    jobs.add_argument("--experiments", type=Path, metavar="FILE",
                      help="JSON file: an experiment configuration or a list of them (instead of the notebooks)")
    jobs.add_argument("--store", type=Path, help="--experiments: the result store all slices share "
                                                 "(default: the user cache)")
    jobs.add_argument("--backend", choices=("serial", "processes", "joblib"), default=None,
                      help="--experiments: how a slice maps its chunks (joblib: under the joblib configuration "
                           "in effect; default serial)")
    jobs.add_argument("--n-jobs", type=int, default=None, help="--experiments: workers of a slice's backend")
    data = commands.add_parser("data", help="get the data the notebooks and tests read")
    data_commands = data.add_subparsers(dest="data_command", required=True)
    fetch = data_commands.add_parser("fetch-uci", help="download the 27 UCI ARFF files, each verified by its SHA-256")
    fetch.add_argument("dest", type=Path, nargs="?", help="folder to fetch into (default: $REPLICABILITY_UCI_DIR)")
    cmp = commands.add_parser("compare", help="compare two learners on a CSV, ARFF or Parquet file")
    cmp.add_argument("data", type=Path, help="CSV, ARFF or Parquet file")
    cmp.add_argument("--target", required=True, help="target column (ARFF: class attribute)")
    cmp.add_argument("-a", "--learner-a", required=True, metavar="LEARNER",
                     help="module.Class (e.g. sklearn.naive_bayes.GaussianNB); a pipeline, steps module.Class or "
                          "module.Class(NAME=VALUE, ...) joined by '|'; or FILE.py defining `estimator`")
    cmp.add_argument("-b", "--learner-b", required=True, metavar="LEARNER", help="as -a")
    cmp.add_argument("--param-a", action="append", default=[], metavar="NAME=VALUE",
                     help="repeatable: a class's parameter, or set_params of FILE.py's estimator")
    cmp.add_argument("--param-b", action="append", default=[], metavar="NAME=VALUE", help="as --param-a")
    cmp.add_argument("--scheme", default="10x10cv", help="RxKcv (e.g. 10x10cv, 5x2cv), resampling, or a registry name "
                                                          "(cv, rxk_cv, kfold_cv, 5x2, resample)")
    cmp.add_argument("--n-runs", type=int, default=10, help="splits of 'resampling'")
    cmp.add_argument("--test-size", type=float, default=0.1, help="test fraction of 'resampling'")
    cmp.add_argument("--scoring", help="scikit-learn scoring name (default: the estimators' score)")
    cmp.add_argument("--n-repeats", type=int, default=10, help="independent randomizations of the scheme")
    cmp.add_argument("--alpha", type=float, default=0.05)
    cmp.add_argument("--rope", type=float, default=None,
                     help="region of practical equivalence on the score's scale (e.g. 0.01 = one accuracy point): "
                          "adds the Bayesian correlated t-test")
    cmp.add_argument("--quick", action="store_true", help="a first look: 1x10cv, 2 randomizations, 40 fits")
    cmp.add_argument("--estimator-seeds", choices=("unset", "all"), default="unset",
                     help="draw random_state from --seed for every split: those left unset (default), or all")
    cmp.add_argument("--no-preprocessing", dest="preprocessing", action="store_false",
                     help="no imputation of missing values nor one-hot encoding of text columns")
    cmp.add_argument("--n-jobs", type=int, default=1)
    cmp.add_argument("--seed", type=int, default=0, help="root seed of the randomizations")
    cmp.add_argument("--json", type=Path, help="also write the result as JSON")
    args = parser.parse_args(argv)
    if args.command == "compare":
        return comparison.command.compare_command(args)
    if args.command == "data":
        from .sources.uci_fetch import fetch_uci_command

        return fetch_uci_command(args)
    if args.command == "reproduce" and args.experiments is not None:
        if not (args.slice is not None or args.join):
            parser.error("--experiments FILE goes with --slice I/N or --join")
        if args.since is not None or args.notebooks != [Path("notebooks")] or args.parameter:
            parser.error("--notebooks, --since and -p reproduce notebooks; --experiments computes experiments")
        args.backend = args.backend or "serial"
        from .engine.slices import slices_command

        return slices_command(args)
    if args.command == "reproduce":
        if args.store is not None or args.backend is not None or args.n_jobs is not None:
            parser.error("--store, --backend and --n-jobs go with --experiments FILE")
        if args.parameter and not (args.slice is not None or args.join):
            parser.error("-p goes with --slice I/N or --join (reproduce alone writes the notebooks at their defaults)")
    if args.command == "run" and args.output is not None and len(args.notebooks) > 1:
        parser.error("-o/--output takes a single notebook")
    if args.command == "run" and args.list_parameters and (args.parameter or args.output is not None):
        parser.error("--list-parameters executes nothing: it takes no -p or -o")
    if args.command == "run" and args.list_parameters:
        return report.parameter_list.list_parameters_command(args)
    if args.command == "reproduce" and (args.slice is not None or args.join):
        slices = report.book_slices  # an array job's task, or its join (which executes nothing)
        action = slices.book_slice if args.slice is not None else (lambda args, progress: slices.book_join(args))
        return report.notebooks.notebook_command(args, action)
    return report.notebooks.notebook_command(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

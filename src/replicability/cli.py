"""Command line: compare two learners on a data file, run a notebook with new parameters, or recompute results.

``replicability compare`` is the practitioner's comparison
(:mod:`replicability.comparison.command`); ``replicability run`` and ``replicability
reproduce`` execute the book's notebooks (:mod:`replicability.report.notebooks`). This
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
    reproduce = commands.add_parser("reproduce", help="recompute results at paper scale")
    reproduce.add_argument("--notebooks", type=Path, nargs="+", default=[Path("notebooks")],
                           help="folders (notebooks in them and one level below) or notebook files")
    reproduce.add_argument("--since", metavar="TIME",
                           help="recompute only results created before this UTC time (resume an interrupted run)")
    cmp = commands.add_parser("compare", help="compare two learners on a CSV, ARFF or Parquet file")
    cmp.add_argument("data", type=Path, help="CSV, ARFF or Parquet file")
    cmp.add_argument("--target", required=True, help="target column (ARFF: class attribute)")
    cmp.add_argument("-a", "--learner-a", required=True, metavar="CLASS", help="e.g. sklearn.naive_bayes.GaussianNB")
    cmp.add_argument("-b", "--learner-b", required=True, metavar="CLASS")
    cmp.add_argument("--param-a", action="append", default=[], metavar="NAME=VALUE", help="repeatable")
    cmp.add_argument("--param-b", action="append", default=[], metavar="NAME=VALUE", help="repeatable")
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
    if args.command == "run" and args.output is not None and len(args.notebooks) > 1:
        parser.error("-o/--output takes a single notebook")
    return report.notebooks.notebook_command(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""What a notebook's parameters are: ``replicability run NOTEBOOK --list-parameters`` and the book's table.

Each parameter of a notebook (a name its cell tagged ``parameters`` assigns) is listed
with its type (that of its default, which ``run`` checks a value against), its default,
its allowed values (the range declared in :mod:`replicability.report.parameters`, which
``run`` also checks) and its meaning (:func:`~replicability.report.parameters.parameter_meaning`).
The same rows give the terminal listing (:func:`format_parameters`) and the table of the
book's page "How to rerun" (:func:`parameters_markdown`, rendered at build time by the
book's ``parameter_table`` extension), so neither can drift from what ``run`` checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .._validation import command_error
from .notebooks import notebook_parameters, require_book_extra
from .parameters import ANY, kind_words, parameter_meaning, parameter_rule

__all__ = ["ParameterRow", "format_parameters", "list_parameters_command", "parameter_rows", "parameters_markdown"]


@dataclass(frozen=True)
class ParameterRow:
    """One parameter of one notebook, as listed.

    Attributes
    ----------
    name : str
        The name assigned in the parameters cell.
    kind : str
        Its type in words, that of its default (``"a number"``, ``"a list of integers"``).
    default : str
        The default's ``repr``.
    allowed : str
        The declared range in words (``"a number in (0, 1)"``).
    meaning : str
        What it means; ``"(not declared)"`` for a name outside the schema.
    """

    name: str
    kind: str
    default: str
    allowed: str
    meaning: str


def _type_words(default):
    if default is None:
        return "any (computed default or None)"
    if isinstance(default, (list, tuple)) and default:
        kinds = sorted({kind_words(v) for v in default})
        if len(kinds) == 1 and kinds[0] in ("an integer", "a number", "a string", "a list"):
            plural = {"an integer": "integers", "a number": "numbers", "a string": "strings", "a list": "lists"}
            return f"a list of {plural[kinds[0]]}"
    return kind_words(default)


def _allowed_words(path, name, default):
    rule = parameter_rule(path, name)
    if rule is None:
        return "not declared: its default's type"
    if rule == ANY:
        return "its default's type" if default is not None else "any value"
    if isinstance(default, (list, tuple)) and not rule.choices:
        return f"a non-empty list, each element {rule.describe()}"
    return rule.describe()


def parameter_rows(path):
    """The :class:`ParameterRow` of each parameter of the notebook at ``path``, in the cell's order.

    Raises
    ------
    ValueError
        If ``path`` is not a readable notebook or its parameters cell does not parse.
    """
    path = Path(path)
    defaults = notebook_parameters(path)
    return [ParameterRow(name, _type_words(default), repr(default), _allowed_words(path, name, default),
                         parameter_meaning(path, name) or "(not declared)")
            for name, default in defaults.items()]


def format_parameters(path):
    """The listing ``replicability run NOTEBOOK --list-parameters`` prints for one notebook.

    Per parameter: ``name = default``, then its allowed values and type, then its meaning.
    """
    rows = parameter_rows(path)
    if not rows:
        return f"{path}: no parameters (no cell tagged `parameters` assigns any)"
    lines = [f"{path}: {len(rows)} parameter{'s' if len(rows) > 1 else ''} (set one with -p NAME VALUE)"]
    for row in rows:
        lines += [f"  {row.name} = {row.default}", f"      {row.allowed}; type: {row.kind}", f"      {row.meaning}"]
    return "\n".join(lines)


def _cell(text):
    return text.replace("|", "\\|")


def parameters_markdown(notebooks, root):
    """A MyST table of the parameters of each notebook in ``notebooks``, for the book.

    Parameters
    ----------
    notebooks : iterable of Path
        The notebooks, in the order listed.
    root : Path
        The book's source folder: each notebook is linked as the document
        ``/<path relative to root, without suffix>``.

    Returns
    -------
    list of str
        Markdown lines: per notebook a line with its link, then a table with the
        columns parameter, default, allowed values and meaning (the type is that of the
        default). Notebooks without parameters are left out.
    """
    lines = []
    for path in notebooks:
        rows = parameter_rows(path)
        if not rows:
            continue
        document = Path(path).resolve().relative_to(Path(root).resolve()).with_suffix("").as_posix()
        lines += ["", f"{{doc}}`/{document}`", "", "| Parameter | Default | Allowed values | Meaning |",
                  "| --- | --- | --- | --- |"]
        lines += [f"| `{row.name}` | `{_cell(row.default)}` | {_cell(row.allowed)} | {_cell(row.meaning)} |"
                  for row in rows]
    return lines


def list_parameters_command(args):
    """Carry out ``replicability run NOTEBOOK... --list-parameters``: print each listing; return the exit code.

    A missing or unreadable notebook is one line on standard error, exit code 2.
    """
    require_book_extra("run")
    listings = []
    for path in args.notebooks:
        try:
            listings.append(format_parameters(path))
        except ValueError as exc:
            return command_error(str(exc), "run")
    print("\n\n".join(listings))
    return 0

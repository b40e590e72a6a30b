"""A derivation walked step by step: each displayed step of a paper beside the check that confirms or corrects it.

A :class:`Step` records one line of a paper's derivation: where it is, what it says
(the LaTeX as printed, typos included), the corrected form where the printed one
does not hold, how it was checked (``sympy`` algebra, exact ``enumeration`` over small
cases, ``simulation`` at the paper's sizes, an ``exhaustive`` or symbolic argument over
the stated range), what the check found, and the outcome: **confirmed** (the printed
step holds) or **erratum** (it does not hold as printed, or only under an unstated
assumption; the corrected step is checked instead). A :class:`Derivation` collects the
steps of one paper, judges each through :class:`~replicability.report.claims.Claims`
and builds the notebook's :class:`~replicability.report.page.Page`, one table per step.

The checks themselves are the step functions of each paper's ``derivation`` module;
:func:`identity` is the algebra check they share: a difference that ``sympy``
simplifies to zero proves an identity, and one that evaluates to a non-zero number at
a point of the stated range disproves it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from .claims import Claims
from .page import Page, Table, plain

__all__ = ["CONFIRMED", "ERRATUM", "Derivation", "Step", "identity", "require_sympy"]

CONFIRMED = "confirmed"
ERRATUM = "erratum"


def require_sympy():
    """``sympy``, which the derivation checks need (the ``book`` extra), with a clear message if it is missing.

    Examples
    --------
    >>> require_sympy().__name__
    'sympy'
    """
    try:
        import sympy
    except ImportError as exc:  # pragma: no cover - the test environment has sympy
        raise ImportError("The derivation checks need sympy: pip install 'replicability[book]' (or sympy).") from exc
    return sympy


def identity(lhs, rhs, point=None):
    """Whether ``lhs == rhs`` is an identity, proved by ``sympy``; with a counterexample if not.

    Parameters
    ----------
    lhs, rhs : sympy expression or number
    point : dict, optional
        Values of the free symbols at which a non-identity is shown (a point of the
        stated range); by default every free symbol is set to 3/10, 7/10 alternately.

    Returns
    -------
    tuple of (bool, float)
        ``(True, 0.0)`` when ``sympy.simplify(lhs - rhs)`` is zero, else ``(False, value)``
        with the difference at ``point`` (``nan`` if it cannot be evaluated there).

    Examples
    --------
    >>> import sympy as sp
    >>> p = sp.Symbol("p")
    >>> identity(p**2 + (1 - p)**2 - sp.Rational(1, 2), 2 * (p - sp.Rational(1, 2))**2)
    (True, 0.0)
    >>> identity(p**2, p, {p: sp.Rational(1, 2)})
    (False, -0.25)
    """
    sp = require_sympy()
    diff = sp.sympify(lhs) - sp.sympify(rhs)
    if sp.simplify(diff) == 0 or sp.simplify(sp.expand(diff)) == 0:
        return True, 0.0
    if point is None:
        point = {s: sp.Rational(3 + 4 * (k % 2), 10) for k, s in enumerate(sorted(diff.free_symbols, key=str))}
    try:
        value = float(sp.N(diff.subs(point)))
    except (TypeError, ValueError):
        value = float("nan")
    return False, value


@dataclass
class Step:
    """One step of a derivation and its check.

    Attributes
    ----------
    key : str
        Short name, unique in the derivation (the claim's key and the page's table name).
    where : str
        Section, lemma or theorem, and part of the proof.
    statement : str
        The step in words.
    printed : str
        The step as printed (LaTeX, without ``$``), typos included.
    corrected : str or None
        The corrected step (LaTeX) when the printed one does not hold.
    method : str
        ``sympy``, ``enumeration``, ``simulation``, ``exhaustive``, or several joined by ``+``.
    result : str
        What the check found, in words and numbers (rounded as shown).
    holds : bool
        Whether the printed step holds.
    corrected_holds : bool or None
        Whether the corrected step holds (None without a correction).
    evidence : pandas.DataFrame or None
        The numbers behind ``result`` (values rounded as shown).
    form : object
        The expression or value the check was run on (``printed`` unless overridden).
    known : bool
        An erratum already listed in the compendium's ERRATA (a printed typo).
    simulated : tuple or None
        ``(simulated, formula, standard error[, label])`` (floats or arrays) when the step is
        also checked by simulation: judged by ``Claims.close_to`` (the Monte Carlo rule);
        ``label`` names what the simulation is compared with.
    """

    key: str
    where: str
    statement: str
    printed: str
    method: str
    result: str
    holds: bool
    corrected: str | None = None
    corrected_holds: bool | None = None
    evidence: pd.DataFrame | None = None
    form: object = None
    known: bool = False
    simulated: tuple | None = None

    @property
    def outcome(self):
        """``confirmed`` or ``erratum``."""
        return CONFIRMED if self.holds else ERRATUM

    def card(self):
        """The step's check as a :class:`~replicability.report.page.Table`: where, step, method, check, outcome.

        The printed and corrected forms (LaTeX) are shown as math by the page's text beside the card.
        """
        outcome = self.outcome
        if not self.holds:
            outcome += " (known typo, ERRATA)" if self.known else " (new)"
            if self.corrected_holds is not None:
                outcome += "; corrected step " + ("confirmed" if self.corrected_holds else "does not hold")
        rows = {"where": self.where, "step": self.statement, "method": self.method, "check": self.result,
                "outcome": outcome}
        return Table(pd.DataFrame({self.key: list(rows.values())}, index=list(rows)), index=True)


@dataclass
class Derivation:
    """The steps of one paper's derivation, in the paper's order.

    Attributes
    ----------
    paper, page : str
        Folder name of the paper and the notebook's stem (for the claims file).
    steps : list of Step
    values : dict
        Numbers the page's text quotes.
    figures : dict
        Functions drawing the page's figures.
    data : dict
        Tables behind the checks (e.g. the simulations).
    """

    paper: str
    page: str
    steps: list
    values: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)

    def __getitem__(self, key):
        for step in self.steps:
            if step.key == key:
                return step
        raise KeyError(f"`key` must be one of {[s.key for s in self.steps]}; got {key!r}.")

    def table(self):
        """One row per step: where, step, method, outcome (and whether a typo is known)."""
        return pd.DataFrame({
            "step": [s.key for s in self.steps], "where": [s.where for s in self.steps],
            "statement": [s.statement for s in self.steps], "method": [s.method for s in self.steps],
            "outcome": [s.outcome + ("" if s.holds else (" (known)" if s.known else " (new)"))
                        for s in self.steps]})

    def claims(self):
        """Each step as a claim: ``exactly`` on whether the printed step holds; an erratum adds its corrected step."""
        c = Claims(self.paper, self.page)
        for s in self.steps:
            c.exactly(s.key, f"{s.statement} (as printed)", s.where, condition=bool(s.holds),
                      measured=s.result, rule=s.method)
            if s.corrected is not None:
                c.exactly(f"{s.key}_corrected", f"{s.statement} (the corrected step)", s.where,
                          condition=bool(s.corrected_holds), measured=s.result, rule=s.method)
            if s.simulated is not None:
                value, formula, se, *label = s.simulated
                label = label[0] if label else f"{'corrected' if s.corrected is not None else 'printed'} formula"
                c.close_to(f"{s.key}_simulated", f"{s.statement}: the simulation agrees with {label}", s.where,
                           value=value, published=formula, se=se, rounding=0.0, digits=4)
        return c

    def counts(self):
        """Steps confirmed, errata already known and new errata."""
        errata = [s for s in self.steps if not s.holds]
        return {"n_steps": len(self.steps), "n_confirmed": len(self.steps) - len(errata),
                "n_errata": len(errata), "n_known": sum(s.known for s in errata),
                "n_new": sum(not s.known for s in errata),
                "n_corrected_hold": sum(bool(s.corrected_holds) for s in errata)}

    def as_page(self):
        """The notebook's :class:`~replicability.report.page.Page`.

        The table ``steps``, one table per step (its card, then its evidence), a claim per
        step (and per corrected step and simulation), and the counts and outcomes the text quotes.
        """
        tables = {"steps": Table(self.table().set_index("step"), index=True)}
        for s in self.steps:
            parts = [s.card()]
            if s.evidence is not None:  # round-off (1e-16) shown as 0 on every machine
                parts.append(Table(s.evidence.round(10), 4, index=False))
            tables[s.key] = parts
        claims = self.claims()
        counts = self.counts()
        summary = (f"{counts['n_steps']} steps checked: {counts['n_confirmed']} confirmed, {counts['n_errata']} "
                   f"errata ({counts['n_known']} known typos, {counts['n_new']} new); {claims.summary()}")
        verdicts = {f"outcome_{s.key}": s.outcome for s in self.steps}
        return Page(claims, plain({**self.values, **counts, **verdicts}), summary, tables, figures=self.figures,
                    data=self.data)

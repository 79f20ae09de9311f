"""The contract (sigcore/contract.py) is the one place of the defaults, the checks of the shared settings, the tie
rule and the tails: no entry point repeats a default as a literal, every one refuses a bad setting with the same
message, and the tails every test counts are the contract's."""

from __future__ import annotations

import ast
import inspect
import warnings
from pathlib import Path

import numpy as np
import pytest

import sigcore
from sigcore import claims as claims_module
from sigcore import contract, leaderboard, power, sequential
from sigcore.__main__ import main
from sigcore.contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_RESAMPLES,
    SIMULATION_RESAMPLES,
)
from sigcore.errors import SettingsError
from sigcore.statistics import closed_form, friedman, replicability
from sigcore.statistics.aso import N_BOOTSTRAP, aso, multi_aso
from sigcore.teaching import bootstrap as teaching_bootstrap
from sigcore.teaching import pitfalls, test_guide

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*ROOT.glob("sigcore/**/*.py"), *ROOT.glob("ui/*.py"), *ROOT.glob("app_pages/*.py"), ROOT / "app.py"])

# The value each shared setting defaults to: a literal equal to it, where that setting is given, repeats the default.
DEFAULTS = {"n_resamples": {DEFAULT_RESAMPLES, SIMULATION_RESAMPLES}, "resamples": {DEFAULT_RESAMPLES},
            "n_bootstrap": {DEFAULT_RESAMPLES}, "alpha": {DEFAULT_ALPHA}, "seed": {DEFAULT_SEED},
            "alternative": {DEFAULT_ALTERNATIVE}}
FLAGS = {"--resamples", "--alpha", "--seed", "--alternative"}
# Numbers that are not a default b, each with the reason it is written where it is (file, the line's text).
NOT_B = {("sigcore/io/inputs.py", "MAX_COLUMNS = 10_000"): "a limit of columns per table",
         ("sigcore/teaching/test_guide.py", "n_sims: int = 10_000"): "simulated test sets, not resamples",
         ("ui/walkthrough.py", "BATCH_PACES"): "the Classroom's 'Draw 10,000' button and its pace",
         ("ui/walkthrough.py", "Draw 10,000"): "the Classroom's 'Draw 10,000' button",
         ("ui/pitfalls.py", "Items per test set"): "test-set sizes a slider offers"}


def _literal(node) -> object:
    return node.value if isinstance(node, ast.Constant) and not isinstance(node.value, bool) else None


def _repeated_defaults(path: Path, name: str) -> list[str]:
    """Where ``path`` (``name`` in the repository) writes a shared setting's default as a literal: a parameter's
    default, a dataclass field, an argparse ``default=`` of the setting's flag, a widget's preselected α, or 10,000
    anywhere. A call's keyword is the caller's choice (a two-sided lesson stays two-sided), not a default."""
    text = path.read_text(encoding="utf-8")
    lines, found = text.splitlines(), []

    def flag(node, setting: str, value) -> None:
        if setting in DEFAULTS and value is not None and value in DEFAULTS[setting]:
            found.append(f"{name}:{node.lineno}: {setting} = {value!r}")

    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            positional = args.posonlyargs + args.args
            for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults):
                flag(default, arg.arg, _literal(default))
            for arg, default in zip(args.kwonlyargs, args.kw_defaults):
                if default is not None:
                    flag(default, arg.arg, _literal(default))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            flag(node, node.target.id, _literal(node.value))
        elif isinstance(node, ast.Call):
            first = _literal(node.args[0]) if node.args else None
            if first in FLAGS:  # add_argument("--alpha", default=0.05)
                found += [f"{name}:{node.lineno}: {first} default={_literal(k.value)!r}" for k in node.keywords
                          if k.arg == "default" and _literal(k.value) is not None]
            if isinstance(node.func, ast.Attribute) and node.func.attr == "index" and first == DEFAULT_ALPHA:
                found.append(f"{name}:{node.lineno}: index({first!r}) of a choice of α")
            if any(k.arg == "value" and _literal(k.value) == DEFAULT_ALPHA for k in node.keywords) \
                    and any(_literal(a) == "α" for a in node.args):
                found.append(f"{name}:{node.lineno}: an α slider's value={DEFAULT_ALPHA!r}")
        if _literal(node) == DEFAULT_RESAMPLES and isinstance(node, ast.Constant):
            line = lines[node.lineno - 1]
            if not any(where == name and text in line for where, text in NOT_B):
                found.append(f"{name}:{node.lineno}: {line.strip()}")
    return found


def test_no_entry_point_repeats_a_default_as_a_literal():
    found = [hit for path in SOURCES if path.name != "contract.py"
             for hit in _repeated_defaults(path, path.relative_to(ROOT).as_posix())]
    assert not found, "write the contract's constant instead:\n" + "\n".join(found)


def test_the_scan_finds_what_it_looks_for(tmp_path):
    """The scan above is not vacuous: each form of a repeated default is found, and a deliberate value (a lesson's
    one-sided H1, a layout's 0.05, a call's own choice) is not."""
    path = tmp_path / "bad.py"
    path.write_text("def f(a, *, n_resamples: int = 10_000, alpha=0.05, seed=0, alternative='two-sided'): pass\n"
                    "p.add_argument('--alpha', default=0.1)\nx = ALPHAS.index(0.05)\nB = 10_000\n"
                    "s = st.select_slider('α', (0.01, 0.05), value=0.05)\ng(n_resamples=1_000)\n"
                    "def h(alternative='greater', gap=0.05, seed=3): pass\n")
    found = _repeated_defaults(path, "bad.py")
    assert sorted({int(hit.split(":")[1]) for hit in found}) == [1, 2, 3, 4, 5], found
    assert sum(hit.startswith("bad.py:1:") for hit in found) == 5  # four parameters, and 10_000 itself


def test_every_entry_point_defaults_to_the_contract():
    for function in (sigcore.compare, sigcore.stream, sigcore.compare_many, sigcore.compare_seeds, power.plan,
                     power.power_at, power.plan_from_rates, claims_module.claim, leaderboard.bootstrap, aso,
                     multi_aso, pitfalls.many_comparisons, test_guide.few_discordant_pairs):
        parameters = inspect.signature(function).parameters
        for setting, default in (("alternative", DEFAULT_ALTERNATIVE), ("alpha", DEFAULT_ALPHA),
                                 ("seed", DEFAULT_SEED)):
            if setting in parameters:
                assert parameters[setting].default == default, (function.__name__, setting)
        if "n_resamples" in parameters:
            assert parameters["n_resamples"].default in (DEFAULT_RESAMPLES, SIMULATION_RESAMPLES), function.__name__
    assert inspect.signature(leaderboard.bootstrap).parameters["n_resamples"].default == DEFAULT_RESAMPLES
    assert N_BOOTSTRAP == DEFAULT_RESAMPLES


def test_aso_is_reproducible_by_default():
    a, b = [0.7, 0.72, 0.69, 0.71, 0.73], [0.68, 0.7, 0.71, 0.69, 0.7]
    first, second = aso(a, b), aso(a, b)
    assert first.seed == DEFAULT_SEED and first.eps_min == second.eps_min == aso(a, b, seed=0).eps_min
    assert multi_aso({"a": a, "b": b}).equals(multi_aso({"a": a, "b": b}))


# ---------------------------------------------------------------- one message per setting, from every entry point

GOLD, A, B = [1, 0, 1, 1, 0, 1, 0, 1] * 5, [1, 0, 1, 0, 0, 1, 0, 1] * 5, [1, 1, 1, 0, 0, 0, 0, 1] * 5
SCORES_A, SCORES_B = [0.7, 0.72, 0.69, 0.71], [0.68, 0.7, 0.71, 0.69]

ALPHA = r"`alpha` must be a number strictly between 0 and 1, not 1\.5\. The usual levels are 0\.05, 0\.01 and 0\.001\."
RESAMPLES = r"`n_resamples` must be a positive integer, not 0\.$"
ALTERNATIVE = (r"`alternative` must be one of greater, less, two-sided, not 'sideways'\. greater: A better; less: B "
               r"better; two-sided: they differ\.")

CALLS = {
    "compare": lambda **s: sigcore.compare(GOLD, A, B, **s),
    "stream": lambda **s: sigcore.stream(GOLD, A, B, **s),
    "compare_many": lambda **s: sigcore.compare_many(GOLD, {"a": A, "b": B, "c": A}, **s),
    "compare_seeds": lambda **s: sigcore.compare_seeds(GOLD, [A, A], [B, B], **s),
    "claim": lambda **s: claims_module.claim(GOLD, A, B, kind="equivalent", margin=0.1, **s),
    "power.plan": lambda **s: power.plan(A, B, **s),
    "power.power_at": lambda **s: power.power_at(A, B, 100, **s),
    "power.plan_from_rates": lambda **s: power.plan_from_rates(100, 0.7, 0.6, 0.8, **s),
    "pitfalls": lambda **s: pitfalls.many_comparisons(2, n=50, n_sims=2, **s),
    "test_guide": lambda **s: test_guide.few_discordant_pairs(4, n_sims=2, **s),
    "teaching.power": lambda **s: teaching_bootstrap.power([20], 0.7, 0.6, 0.8, n_sims=2, **s),
}
ALPHA_ONLY = {
    "advise": lambda alpha: sigcore.advisor.advise("accuracy", n_items=10, alpha=alpha),
    "advise_outputs": lambda alpha: sigcore.advisor.advise_outputs(GOLD, A, B, alpha=alpha),
    "sequential.run": lambda alpha: sequential.run([1, 0, 1], [0, 0, 1], alpha=alpha),
    "sequential.Monitor": lambda alpha: sequential.Monitor(alpha=alpha),
    "replicability": lambda alpha: replicability([0.01, 0.2], alpha=alpha),
    "friedman": lambda alpha: friedman.friedman(np.eye(3), ["a", "b", "c"], alpha),
    "claims.power": lambda alpha: claims_module.power("equivalent", 0.1, delta=0, sd=1, n=10, alpha=alpha),
    "claims.plan": lambda alpha: claims_module.plan("equivalent", 0.1, delta=0, sd=1, alpha=alpha),
}
ALTERNATIVE_ONLY = {
    "paired_t": lambda alternative: closed_form.paired_t(SCORES_A, SCORES_B, alternative=alternative),
    "wilcoxon": lambda alternative: closed_form.wilcoxon(SCORES_A, SCORES_B, alternative=alternative),
    "mcnemar": lambda alternative: closed_form.mcnemar(A, B, alternative=alternative),
    "exact_bootstrap_p": lambda alternative: teaching_bootstrap.exact_bootstrap_p(A, B, alternative=alternative),
}


def _board():
    import pandas as pd

    rows = [{"model": m, "task": "t", "item": i, "score": float(s)} for m, xs in (("a", A), ("b", B))
            for i, s in enumerate(xs)]
    return leaderboard.from_table(pd.DataFrame(rows))


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("setting, value, message", [("alpha", 1.5, ALPHA), ("n_resamples", 0, RESAMPLES),
                                                     ("alternative", "sideways", ALTERNATIVE)])
def test_every_entry_point_refuses_a_bad_setting_with_the_one_message(name, setting, value, message):
    if setting == "alternative" and name in ("test_guide", "teaching.power", "claim"):
        pytest.skip("its side is the method's (a lesson's subject, a claim's one-sided tests): it takes no H1")
    with pytest.raises(SettingsError, match=message):
        CALLS[name](**{setting: value})


@pytest.mark.parametrize("name", ALPHA_ONLY)
def test_every_alpha_is_checked_by_the_contract(name):
    with pytest.raises(SettingsError, match=ALPHA):
        ALPHA_ONLY[name](1.5)


@pytest.mark.parametrize("name", ALTERNATIVE_ONLY)
def test_every_alternative_is_checked_by_the_contract(name):
    with pytest.raises(SettingsError, match=ALTERNATIVE):
        ALTERNATIVE_ONLY[name]("sideways")


def test_a_board_s_settings_are_checked_by_the_contract():
    board = _board()
    with pytest.raises(SettingsError, match=RESAMPLES):
        leaderboard.bootstrap(board, n_resamples=0)
    with pytest.raises(SettingsError, match=r"`n_resamples` is at most 10,000,000, not 10,000,001"):
        leaderboard.bootstrap(board, n_resamples=MAX_RESAMPLES + 1)
    with pytest.raises(SettingsError, match=ALPHA):
        leaderboard.bootstrap(board, n_resamples=200).pairs(alpha=1.5)
    with pytest.raises(SettingsError, match=r"`n_bootstrap` must be an integer of at least 2, not 0"):
        aso(SCORES_A, SCORES_B, n_bootstrap=0)


# Each raise that names a shared setting, with the parameter it names: the error says it as `name` and holds it as
# its field, so the command line can name the flag instead without searching the text.
NAMED = [
    ("alpha", lambda: contract.check_alpha(1.5)),
    ("confidence_level", lambda: contract.check_level(2)),
    ("target", lambda: contract.check_level(2, "target")),
    ("tau", lambda: contract.check_level(-1, "tau")),
    ("n_resamples", lambda: contract.check_resamples(0)),
    ("n_resamples", lambda: contract.check_resamples(MAX_RESAMPLES + 1)),
    ("n_bootstrap", lambda: aso(SCORES_A, SCORES_B, n_bootstrap=1)),
    ("alternative", lambda: contract.check_alternative("sideways")),
    ("seed", lambda: contract.check_seed(-1)),
    ("seed", lambda: contract.check_seed(None, optional=False)),
    ("confidence_level", lambda: sigcore.compare(GOLD, A, B, alpha=1e-17)),  # the hint names it
    ("positive_label", lambda: sigcore.compare(["x", "y", "z"] * 3, ["x", "y", "y"] * 3, ["z", "y", "z"] * 3,
                                               metric="f1")),  # the hint names it
    ("n", lambda: power.plan_from_rates(1, 0.7, 0.6, 0.8)),
    ("n", lambda: power.power_at(A, B, 1)),
    ("n_sims", lambda: power.plan_from_rates(100, 0.7, 0.6, 0.8, n_sims=0)),
    ("n_sims", lambda: power.plan_from_rates(100, 0.7, 0.6, 0.8, n_sims=10**9)),
    ("n_max", lambda: power.plan_from_rates(100, 0.7, 0.6, 0.8, n_max=1)),
    ("n_sims", lambda: pitfalls.many_comparisons(2, n=50, n_sims=0)),
    ("n_sims", lambda: test_guide.few_discordant_pairs(4, n_sims=0)),
    ("n", lambda: teaching_bootstrap.nearest_exact_p(0.05, 0)),
    ("n", lambda: test_guide.heavy_tails(n=60, n_sims=2)),
]


@pytest.mark.parametrize("parameter, call", NAMED, ids=[f"{p}-{i}" for i, (p, _) in enumerate(NAMED)])
def test_an_error_names_its_parameter_as_a_field_and_in_backticks(parameter, call):
    with pytest.raises(SettingsError) as refused:
        call()
    e = refused.value
    assert e.parameter == parameter and f"`{parameter}`" in str(e)
    # the flag replaces the name where the message (or its hint) names it, and nothing else changes
    flagged = e.at(parameter="--flag")
    assert str(flagged) == str(e).replace(f"`{parameter}`", "--flag") and "--flag" in str(flagged)
    assert flagged.hint == (e.hint.replace(f"`{parameter}`", "--flag") if e.hint else None)
    assert e.text.count("{parameter}") + (e.hint_text or "").count("{parameter}") == 1  # the slot, not the name


def test_a_parameter_travels_with_a_pickled_error():
    import pickle

    e = SettingsError("{parameter} must be positive", parameter="alpha", hint="Give {parameter} > 0.")
    back = pickle.loads(pickle.dumps(e))
    assert str(back) == str(e) == "`alpha` must be positive. Give `alpha` > 0."
    assert str(back.at(parameter="--alpha")) == "--alpha must be positive. Give --alpha > 0."


def _cli(capsys, argv: list[str]) -> str:
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's refusal: its own usage line, then the message
        code = stop.code
    assert code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("command", ["compare", "many", "seeds", "power", "datasets", "preferences"])
def test_every_command_refuses_a_bad_setting_with_the_one_message(tmp_path, capsys, command):
    table = tmp_path / "t.csv"
    table.write_text("gold,a,b\n" + "".join(f"{g},{a},{b}\n" for g, a, b in zip(GOLD, A, B)))
    files = {"compare": [str(table)], "many": [str(table), "--all-pairs"], "seeds": [str(table)],
             "power": [str(table)], "datasets": [str(table)], "preferences": [str(table)]}[command]
    err = _cli(capsys, [command, *files, "--alpha", "1.5"])
    assert "--alpha must be a number strictly between 0 and 1, not 1.5. The usual levels are 0.05" in err
    if command not in ("datasets", "preferences"):  # datasets' H1 is the method's; preferences' every pair
        err = _cli(capsys, [command, *files, "--alternative", "sideways"])
        assert "--alternative must be one of greater, less, two-sided, not 'sideways'. greater: A better" in err
    if command in ("compare", "many", "power", "preferences"):  # seeds and datasets read the table first
        err = _cli(capsys, [command, *files, "--resamples", "0"])
        assert err.strip().endswith("--resamples must be a positive integer, not 0.")


def test_the_command_line_states_the_contract_s_defaults():
    from sigcore.cli.parser import build

    commands = build().commands
    for name in ("compare", "many", "seeds", "datasets", "power"):
        parsed = vars(commands[name].parse_args(["x.csv"]))
        assert parsed["alpha"] == DEFAULT_ALPHA and parsed["seed"] == DEFAULT_SEED, name
        assert parsed["resamples"] == (SIMULATION_RESAMPLES if name == "power" else DEFAULT_RESAMPLES), name
        if name != "datasets":
            assert parsed["alternative"] == DEFAULT_ALTERNATIVE, name
    from sigcore.cli.options import ALPHA_HELP, RESAMPLES_HELP, SEED_HELP

    assert RESAMPLES_HELP.endswith("(b; default 10,000)") and ALPHA_HELP.endswith("(default 0.05)")
    assert SEED_HELP.endswith("(default 0)")


# ---------------------------------------------------------------- ties and tails

def test_the_tie_rule_is_relative_to_the_scores():
    assert contract.tie(0.7, 0.5) == pytest.approx(0.7e-9)
    assert contract.tie(-300.0, 2.0) == pytest.approx(3e-7)
    assert contract.tie(0.0, 0.0) > 0  # never 0: identical systems tie
    np.testing.assert_allclose(contract.tie(np.array([1.0, 1e-12]), np.array([0.5, 0.0])), [1e-9, 1e-21])


@pytest.mark.parametrize("alternative, counted", [("greater", [False, True, True, True]),
                                                  ("less", [True, True, True, False]),
                                                  ("two-sided", [True, True, True, True])])
def test_the_bootstrap_s_tail_counts_ties_against_two_delta(alternative, counted):
    """SLP3 eq. 4.48: δ(x⁽ⁱ⁾) ≥ 2·δ(x); a resample equal to 2·δ(x) up to float noise is a tie, counted by either
    side, and so is one at 0 for two-sided, |0 − δ| = |δ|."""
    delta = 0.1
    d = np.array([0.0, 0.2 - 1e-11, 0.2 + 1e-11, 0.35])  # 1e-11: noise within the tie tolerance, 0.7e-9
    assert contract.extreme(d, alternative, delta, contract.tie(0.7, 0.6), centre=delta).tolist() == counted


def test_identical_systems_get_p_one_from_every_counted_tail():
    d = np.zeros(5)
    for alternative in contract.ALTERNATIVES:
        assert contract.extreme(d, alternative, 0.0, contract.tie(0.5, 0.5)).all()
        assert contract.extreme(d, alternative, 0.0, contract.tie(0.5, 0.5), centre=0.0).all()


def test_a_board_s_p_is_compare_s_p_for_one_task():
    """The board counts its tail with compare's rule and tie tolerance: on one task, scores 0/1, the same draws give
    the same p as the two-sided paired bootstrap's count would (the board's own test pins the draws)."""
    board = leaderboard.bootstrap(_board(), n_resamples=2_000, seed=3)
    delta, low, high, p = board.delta("a", "b")
    d = board.resampled[:, 0] - board.resampled[:, 1]
    tol = contract.tie(*board.aggregate)
    assert p == np.mean(contract.extreme(d, "two-sided", delta, tol, centre=delta))
    assert p == np.mean(np.abs(d - delta) >= abs(delta) - tol)


def test_a_board_of_tiny_scores_is_not_all_ties():
    """A board took an absolute 1e-9 as its tie tolerance: on losses of 1e-12 every pair was a tie (p = 1, interval
    0 to 0). With the one relative rule, A right on 80% and B on 50% of 200 items differ as they do at scale 1."""
    import pandas as pd

    def delta(scale: float):
        rng = np.random.default_rng(0)  # the same items at either scale
        rows = [{"model": m, "task": "t", "item": i, "score": float(s) * scale}
                for m, share in (("a", 0.8), ("b", 0.5)) for i, s in enumerate(rng.random(200) < share)]
        return leaderboard.bootstrap(leaderboard.from_table(pd.DataFrame(rows)), n_resamples=2_000).delta("a", "b")
    tiny, unit = delta(1e-12), delta(1.0)
    assert tiny[3] == unit[3] < 0.001 and tiny[1] > 0
    np.testing.assert_allclose(np.array(tiny[:3]) * 1e12, unit[:3], rtol=1e-9)


def test_the_closed_form_tests_warn_before_their_side_changes():
    with pytest.warns(DeprecationWarning, match=r"`alternative` defaults to 'greater' here and will default to "
                                                r"'two-sided'.* from version 0\.4\.0"):
        warned = closed_form.paired_t(SCORES_A, SCORES_B)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a side given: no warning, and the same numbers
        assert closed_form.paired_t(SCORES_A, SCORES_B, alternative="greater") == warned


# ---------------------------------------------------------------- metric options

@pytest.mark.parametrize("metric, keyword, closest", [
    ("accuracy", "n_resample", "n_resamples"), ("bleu", "tokenise", "tokenize"), ("f1", "positive_lable",
                                                                                 "positive_label"),
    ("exact_match", "lower_case", "lowercase"), ("chrf", "word_ordre", "word_order"), ("macro_f1", "label", "labels"),
    ("accuracy", "alph", "alpha")])
def test_a_misspelt_keyword_is_refused_with_the_closest_valid_name(metric, keyword, closest):
    gold = ["a b", "c d"] if metric in ("bleu", "chrf", "exact_match") else [1, 0]
    with pytest.raises(SettingsError, match=rf"{metric if metric not in ('bleu', 'chrf') else '(BLEU|chrF)'} has no "
                                            rf"option '{keyword}'\. Did you mean '{closest}'\?"):
        sigcore.compare(gold, gold, gold, metric=metric, **{keyword: 1})


def test_an_option_far_from_every_name_lists_the_valid_ones():
    with pytest.raises(SettingsError, match=r"accuracy has no option 'zzz'\. Valid options: none\.$"):
        sigcore.compare([1, 0], [1, 0], [0, 0], zzz=1)

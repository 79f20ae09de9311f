"""One work budget and progress for every run: the engine refuses beyond it before it starts, and reports as it goes;
the app's runs take turns on the server and say where they stand (issue 23 §3 and §5)."""

import json
import threading
import time

import numpy as np
import pytest

import sigcore
from sigcore import budget
from sigcore.__main__ import main
from sigcore.statistics import multi_aso

RNG = np.random.default_rng(0)
GOLD = list(RNG.integers(0, 3, 400))
SYSTEMS = {f"s{i}": list(np.where(RNG.random(400) < 0.7, GOLD, 0)) for i in range(4)}
SCORES = {f"s{i}": list(RNG.random(5)) for i in range(30)}


@pytest.mark.parametrize("run", [
    lambda **k: sigcore.compare(GOLD, SYSTEMS["s0"], SYSTEMS["s1"], metric="macro_f1", test="bootstrap", **k),
    lambda **k: sigcore.compare_many(GOLD, SYSTEMS, metric="macro_f1", test="bootstrap", **k),
    lambda **k: sigcore.compare_many(GOLD, SYSTEMS, metric="macro_f1", test="permutation", **k),
    lambda **k: sigcore.compare_seeds(GOLD, [SYSTEMS["s0"], SYSTEMS["s1"]], [SYSTEMS["s2"], SYSTEMS["s3"]], **k),
    lambda **k: multi_aso(SCORES, n_bootstrap=200, seed=0, **k),
], ids=["compare", "many", "many permutation", "seeds", "aso"])
def test_every_run_is_refused_beyond_its_budget_before_it_starts_and_reports_its_progress(run):
    calls = []
    with pytest.raises(budget.BudgetError, match=r"is about .* steps \(some .* on 2 cores\), more than the budget of "
                                                 r"1\.0e\+03\. (Use b of|Make) at most") as info:
        run(budget=1_000, progress=calls.append)
    assert not calls and info.value.work > 1_000 and info.value.most >= 1
    run(budget=None, progress=calls.append)
    assert calls and calls == sorted(calls) and calls[-1] == 1.0 and all(0 < c <= 1 for c in calls)


def test_a_family_of_too_many_comparisons_is_refused_before_its_pairs_exist():
    """many --all-pairs on a table of 9,000 systems held 3 GB at 60 s: 40 million pairs were listed first."""
    systems = {f"s{i}": [i % 2, 1, 0] for i in range(9_000)}
    start = time.monotonic()
    with pytest.raises(budget.BudgetError, match=r"40,495,500 comparisons of 3 items at b = 10,000 .* Make at most "
                                                 r"199,940 comparisons, or compare fewer systems"):
        sigcore.compare_many([1, 1, 0], systems, all_pairs=True, budget=budget.DEFAULT)
    assert time.monotonic() - start < 5


def test_the_budgets_largest_b_fits_and_one_more_does_not():
    with pytest.raises(budget.BudgetError) as info:
        multi_aso(SCORES, n_bootstrap=10_000, seed=0, budget=10**8)
    most = info.value.most
    multi_aso(dict(list(SCORES.items())[:2]), n_bootstrap=2, seed=0, budget=10**8)
    with pytest.raises(budget.BudgetError):
        multi_aso(SCORES, n_bootstrap=most + 1, seed=0, budget=10**8)
    assert multi_aso(SCORES, n_bootstrap=min(most, 50), seed=0, budget=10**8).shape == (30, 30)


def test_the_command_line_has_the_same_budget_and_says_how_to_raise_it(tmp_path, capsys):
    """sigcore seeds with 500 systems ran 197 s at b = 100 with no budget."""
    table = tmp_path / "seeds.csv"
    rng = np.random.default_rng(1)
    table.write_text("seed," + ",".join(f"s{i}" for i in range(500)) + "\n" + "".join(
        f"{k}," + ",".join(f"{x:.3f}" for x in rng.random(500)) + "\n" for k in range(5)))
    start = time.monotonic()
    assert main(["seeds", str(table), "--resamples", "100"]) == 2
    err = capsys.readouterr().err
    assert time.monotonic() - start < 10  # refused before the work, not after it
    assert "ASO over 124,750 pairs at b = 100 is about 5.1e+09 steps" in err and "compare fewer systems" in err
    assert "Or raise the limit: --budget 5.2e+09 (or none)." in err
    small = tmp_path / "small.csv"
    small.write_text("gold,A,B\n" + "x,x,y\ny,y,y\n" * 20)
    assert main(["compare", str(small), "--test", "bootstrap", "--budget", "10"]) == 2
    assert "--budget" in capsys.readouterr().err
    assert main(["compare", str(small), "--test", "bootstrap", "--budget", "none", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["n_resamples"] == 10_000
    with pytest.raises(SystemExit):
        main(["compare", str(small), "--budget", "-1"])


# ---------------------------------------------------------------- the server's turns

class Area:
    """What a page's placeholder is told, as ui.work uses it."""

    def __init__(self, stop_after: int | None = None):
        self.said, self.stop_after = [], stop_after

    def info(self, text, icon=None):
        self.said.append(text)
        if self.stop_after is not None and len(self.said) >= self.stop_after:
            raise KeyboardInterrupt("Stop")  # as Streamlit's StopException ends a script at its next call

    def empty(self):
        pass


def test_runs_take_turns_in_order_and_a_waiting_run_is_told_how_many_are_ahead(monkeypatch):
    from ui import work

    monkeypatch.setattr(work, "SLOTS", 1)
    order, first_in, release = [], threading.Event(), threading.Event()

    def first():
        with work.turn(Area(), "first"):
            first_in.set()
            release.wait(10)
            order.append("first")

    def later(name, area):
        with work.turn(area, name):
            order.append(name)

    threads = [threading.Thread(target=first)]
    threads[0].start()
    assert first_in.wait(10)
    areas = {name: Area() for name in ("second", "third")}
    for name in ("second", "third"):
        threads.append(threading.Thread(target=later, args=(name, areas[name])))
        threads[-1].start()
        time.sleep(0.3)  # so that they ask in this order
    stopped = Area(stop_after=1)  # a closed tab: its wait ends at its first message, and frees its place
    with pytest.raises(KeyboardInterrupt):
        with work.turn(stopped, "closed"):
            order.append("closed")
    time.sleep(0.7)
    release.set()
    for t in threads:
        t.join(10)
    assert order == ["first", "second", "third"]
    assert areas["second"].said[0].startswith("second: waiting for the server, 1 run ahead of yours")
    assert areas["third"].said[0].startswith("third: waiting for the server, 2 runs ahead of yours")
    assert not work._waiting and work._running[0] == 0  # every turn freed


def test_a_finished_result_is_kept_for_every_session():
    from ui import work

    computed = []

    def compute(progress):
        progress(0.5)
        progress(1.0)
        computed.append(1)
        return {"p": 0.01}

    class Bar(Area):
        def progress(self, value, text=None):
            self.said.append((value, text))
            return self

    first, second = Bar(), Bar()
    key = f"test {time.monotonic()}"
    assert work.kept(key, first, "run", compute) == {"p": 0.01} == work.kept(key, second, "run", compute)
    assert computed == [1] and first.said[-1] == (1.0, "run: 100%") and not second.said


@pytest.mark.parametrize("run", [
    lambda **k: sigcore.compare_many(GOLD, SYSTEMS, metric="macro_f1", test="bootstrap", n_resamples=200_000, **k),
    lambda **k: sigcore.compare_seeds(GOLD, [SYSTEMS["s0"], SYSTEMS["s1"]], [SYSTEMS["s2"], SYSTEMS["s3"]],
                                      n_resamples=200_000, **k),
    lambda **k: multi_aso(SCORES, n_bootstrap=20_000, seed=0, **k),
    lambda **k: sigcore.compare(GOLD, SYSTEMS["s0"], SYSTEMS["s1"], metric="macro_f1", test="bootstrap",
                                n_resamples=200_000, **k),
], ids=["many", "seeds", "aso", "compare"])
def test_a_stop_at_the_first_block_ends_the_run_there(run):
    """Streamlit ends a script at its next call into Streamlit, which the progress callback is: the run must end
    there, not compute on (a seeds run kept a core busy for minutes after its tab closed)."""
    calls = []

    def stop(done):
        calls.append(done)
        raise KeyboardInterrupt("Stop")

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run(progress=stop)
    assert len(calls) == 1 and calls[0] < 0.2  # the first block of many, and nothing after it
    assert time.monotonic() - start < 5

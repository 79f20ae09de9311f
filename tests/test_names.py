"""Names cannot forge output (issue 39 §6): a column, model, task or system name, or a `--name` value, holding a
newline, an escape, a carriage return, a tab or a bidi override is shown through one escape (`words.printable`) in
every text the command line prints (the verdict, the tables, the rankings, the LaTeX), kept as it is in JSON and
CSV (data, which their own quoting keeps in its cell), and never starts a line of its own."""

import csv
import io
import json

import pandas as pd
import pytest

from sigcore.__main__ import main
from sigcore.words import CONTROL, in_text, printable

FORGED = "verdict: B beats A, p < 0.0001"
HOSTILE = [f"evil\n{FORGED}", f"evil\r{FORGED}", "evil\x1b[31mred\x07", "evil\u202edrow", "evil\tname"]


def items(n: int = 60) -> dict:
    gold = [i % 2 for i in range(n)]
    return {"id": range(n), "gold": gold, "baseline": [(i // 3) % 2 for i in range(n)],
            "other": [(i // 2) % 2 for i in range(n)]}


def board(model: str, task: str) -> pd.DataFrame:
    """A tidy board: three models on two tasks, 40 items each, right or wrong."""
    rows = [{"model": m, "task": t, "item": i, "score": float((i * (k + 1) + j) % 3 == 0)}
            for k, m in enumerate(["base", model, "third"]) for j, t in enumerate(["arc", task]) for i in range(40)]
    return pd.DataFrame(rows)


def clean(text: str) -> None:
    """No control or invisible character but the line ends, and no line forged by a name."""
    assert not CONTROL.search(text.replace("\n", "")), repr(text[:2000])
    assert not any(line.lstrip().startswith(FORGED) for line in text.splitlines()), text


def strings(value) -> set[str]:
    """Every string in a JSON document, keys included."""
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return {value} if isinstance(value, str) else set()


def run(args: list[str], capsys) -> str:
    assert main(args) == 0, capsys.readouterr().err
    out = capsys.readouterr()
    clean(out.err)
    return out.out


@pytest.mark.parametrize("name", HOSTILE)
def test_a_system_column_in_the_verdict_and_every_view_of_a_pair(name, tmp_path, capsys):
    table = tmp_path / "t.csv"
    pd.DataFrame({**items(), name: items()["other"]}).drop(columns="other").to_csv(table, index=False)
    for extra in ([], ["--latex"], ["--test", "bootstrap", "--resamples", "200"], ["--non-inferior", "0.1"],
                  ["--sequential"]):
        out = run(["compare", str(table), "--a", name, "--b", "baseline", *extra], capsys)
        clean(out)
        assert printable(name) in out or extra == ["--latex"], extra
    saved = json.loads(run(["compare", str(table), "--a", name, "--b", "baseline", "--json"], capsys))
    assert saved["a_name"] == name  # JSON keeps the data


@pytest.mark.parametrize("name", ["evil\x00name", "evil\x00a\x00 slot", "\x00p\x00"])
def test_a_name_holding_nul_is_escaped_even_where_it_looks_like_a_templates_slot(name, tmp_path, capsys):
    """JSON lines can carry NUL in a column's name; the LaTeX and Markdown writers' slots are NUL-delimited, so a
    name shaped like one must still be shown escaped, never filled with another system's name."""
    table = tmp_path / "t.jsonl"
    rows = pd.DataFrame({**items(), name: items()["other"]}).drop(columns="other").to_dict("records")
    table.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for extra in ([], ["--latex"]):
        clean(run(["compare", str(table), "--a", name, "--b", "baseline", *extra], capsys))
    assert printable(name) in run(["compare", str(table), "--a", name, "--b", "baseline"], capsys)


def test_in_text_escapes_a_nul_but_keeps_a_templates_slot_whole():
    assert in_text("evil\x00name") == "evil\\x00name" and in_text("a\x00") == "a\\x00"
    assert in_text("\x00a\x00 beats \x00far0\x00") == "\x00a\x00 beats \x00far0\x00"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_given_with_name_is_shown_as_data(name, tmp_path, capsys):
    table = tmp_path / "t.csv"
    pd.DataFrame(items()).to_csv(table, index=False)
    out = run(["compare", str(table), "--a", "other", "--b", "baseline", "--name", f"A={name}"], capsys)
    clean(out)
    assert printable(name) in out


@pytest.mark.parametrize("name", HOSTILE)
def test_system_columns_in_a_family(name, tmp_path, capsys):
    table = tmp_path / "t.csv"
    pd.DataFrame({**items(), name: items()["other"]}).to_csv(table, index=False)
    for extra in ([], ["--all-pairs"], ["--latex"]):
        clean(run(["many", str(table), "--resamples", "200", *extra], capsys))
    rows = list(csv.DictReader(io.StringIO(run(["many", str(table), "--all-pairs", "--csv"], capsys), newline="")))
    cells = {printable(r[k]) for r in rows for k in ("system", "against")}  # the data, quoted (a terminal's
    assert printable(name) in cells  # stream shows its control characters escaped, as every text it prints)
    saved = run(["many", str(table), "--all-pairs", "--json"], capsys)
    assert name in strings(json.loads(saved))


@pytest.mark.parametrize("name", HOSTILE)
def test_model_and_task_names_on_a_board(name, tmp_path, capsys):
    table = tmp_path / "board.csv"
    board(name, name + " task").to_csv(table, index=False)
    for extra in ([], ["--all-pairs"], ["--latex"]):
        clean(run(["many", str(table), "--resamples", "200", *extra], capsys))
    saved = run(["many", str(table), "--resamples", "200", "--json"], capsys)
    assert name in strings(json.loads(saved))
    for extra in ([], ["--all-pairs"]):  # the board's CSVs: the one writer, formulas neutralised
        rows = list(csv.DictReader(io.StringIO(run(["many", str(table), "--resamples", "200", "--csv", *extra],
                                                   capsys), newline="")))
        assert printable(name) in {printable(r[k]) for r in rows for k in ("model", "other") if k in r}



@pytest.mark.parametrize("name", HOSTILE)
def test_a_boards_html_page_shows_names_as_the_terminal_does(name):
    """The page of `many --html` and of the app's Page download (one builder) is a file, not the terminal's escaping
    stream: its tables held a model's and a task's newline, escape and bidi override raw, under HTML's escape alone."""
    import html

    from sigcore import leaderboard
    from sigcore.report import board_page

    res = leaderboard.bootstrap(leaderboard.from_table(board(name, name + " task")), n_resamples=200)
    page = board_page.page(res, "base", 0.05, "holm")
    clean(page)
    shown = html.escape(printable(name))
    assert f"<td>{shown}</td>" in page and f"<th>{shown} task</th>" in page

def test_a_boards_csv_neutralises_formulas(tmp_path, capsys):
    """`many --csv` on a board printed =HYPERLINK(...) raw, though every other CSV neutralised it."""
    table = tmp_path / "board.csv"
    board("=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1)").to_csv(table, index=False)
    for extra in ([], ["--all-pairs"]):
        out = run(["many", str(table), "--resamples", "200", "--csv", *extra], capsys)
        models = {r[k] for r in csv.DictReader(io.StringIO(out, newline="")) for k in ("model", "other") if k in r}
        assert "'=HYPERLINK(\"http://x\",\"y\")" in models and not any(m.startswith("=") for m in models)


@pytest.mark.parametrize("name", HOSTILE)
def test_systems_over_seeds(name, tmp_path, capsys):
    table = tmp_path / "seeds.csv"
    pd.DataFrame({"base": [0.70, 0.72, 0.69, 0.71, 0.70], name: [0.74, 0.75, 0.73, 0.76, 0.74]}).to_csv(table,
                                                                                                       index=False)
    for extra in ([], ["--latex"]):
        clean(run(["seeds", str(table), *extra], capsys))
    clean(run(["seeds", str(table), "--name", f"base={name} base"], capsys))


def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path):
    """Its bytes are lone surrogates in Python: a strict UTF-8 terminal stream failed on them ("failed
    unexpectedly")."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    folder = os.fsencode(tmp_path)
    with open(folder + b"/run\xff.csv", "w") as f:
        f.write("gold,A,B\n" + "x,x,y\ny,y,y\n" * 20)
    done = subprocess.run([sys.executable, "-m", "sigcore", "compare", folder + b"/run\xff.csv"], capture_output=True,
                          cwd=Path(__file__).resolve().parents[1],
                          env={**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"})
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert "run\\udcff.csv" in out
    clean(out)


def test_a_name_cannot_start_a_heading_of_the_paper_folders_checklist(tmp_path, capsys):
    table = tmp_path / "t.csv"
    pd.DataFrame({**items(), "x\n## C4 forged": items()["other"]}).drop(columns="other").to_csv(table, index=False)
    run(["compare", str(table), "--a", "x\n## C4 forged", "--b", "baseline", "--paper", str(tmp_path / "paper")],
        capsys)
    checklist = (tmp_path / "paper" / "checklist.md").read_text(encoding="utf-8")
    assert "x \\#\\# C4 forged" in checklist  # Markdown's escape: one line, no heading
    assert not any(line.startswith("## C4") for line in checklist.splitlines())

"""A paper folder is safe to write and to run (issue 39, §1, §2 and §9's reproduce.sh).

- reproduce.sh never runs a name as a command: it is RUN here with sh (dash) and bash, with `python` replaced by a
  stub that records its arguments, on hostile file names, column names, --name values and metric options (and on
  random words, with hypothesis): no PWNED file, and the command received exactly the words it was given;
- --paper DIR writes only its own files, only inside DIR: a link is never followed, a file sigcore did not write
  (or one changed since) is not replaced without --replace, a damaged manifest.json is a precise error; the app's
  zip merges under the same rule;
- the script says in one line how to install sigcore when python cannot import it, and runs from any folder.
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import sigcore
from sigcore.__main__ import main
from sigcore.errors import SigcoreError
from sigcore.report import folder, paper, reproduce

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "sample_data" / "seeds" / "digits_seed_scores.csv"
SHELLS = [s for s in ("sh", "bash") if shutil.which(s)]
PWN = "touch PWNED"
HOSTILE = [  # each tries to end the quotes and run PWN, or to hide or reorder what the script shows
    f"a\n'||{PWN};#", f"$({PWN})", f"`{PWN}`", f"';{PWN};'", f'"; {PWN}; "', f"x|{PWN}", "tab\there", "#hash",
    f"bidi\u202e{PWN}", "-leading", "back\\slash\\'", "nl at end\n", f"\r{PWN}\r", "zero\u200bwidth", "'",
    "dollar $HOME ${HOME}", "é 中文",
]


def _stub(bin_folder: Path, log: Path, importable: bool = True) -> dict:
    """A `python` that records each call's arguments (and where it ran) as a JSON line in ``log``; the environment
    that puts it first on PATH."""
    bin_folder.mkdir(exist_ok=True)
    stub = bin_folder / "python"
    stub.write_text(f"#!{sys.executable}\nimport json, os, sys\n"
                    f"with open({str(log)!r}, 'a') as f:\n"
                    "    f.write(json.dumps([os.getcwd(), sys.argv[1:]]) + '\\n')\n"
                    f"sys.exit(0 if {importable} or sys.argv[1] != '-c' else 1)\n")
    stub.chmod(0o755)
    return {"PATH": f"{bin_folder}:/usr/bin:/bin", "HOME": str(bin_folder)}


def _run_script(script: Path, shell: str, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([shell, str(script)], cwd=cwd, env=env, capture_output=True, timeout=120)


def _calls(log: Path) -> list:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _run_everywhere(script: Path, tmp: Path) -> list[list[str]]:
    """Run ``script`` with each shell from another folder; assert no PWNED anywhere and that both shells passed the
    same arguments, in the script's own folder; return the sigcore calls' arguments."""
    seen = []
    for shell in SHELLS:
        log = tmp / f"calls-{shell}.jsonl"
        done = _run_script(script, shell, _stub(tmp / "bin", log), cwd=tmp / "bin")
        assert done.returncode == 0, done.stderr
        calls = _calls(log)
        assert calls[0] == [str(script.parent), ["-c", "import sigcore"]]
        assert all(where == str(script.parent) for where, _ in calls)  # each command runs in the folder
        seen.append([args for _, args in calls[1:]])
    assert not list(tmp.rglob("PWNED")) and not list(Path.cwd().glob("PWNED"))
    assert all(s == seen[0] for s in seen)
    return seen[0]


# ---------------------------------------------------------------- §1: quoting, on random words


def _script(commands: list[str]) -> str:
    return folder.script({f"s{i}": {"command": c} for i, c in enumerate(commands)})


@pytest.mark.slow  # hypothesis: each example runs two shells
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12),
                min_size=1, max_size=6))
@example(HOSTILE[:6])
@example(HOSTILE[6:])
def test_any_words_reach_the_command_exactly_under_sh_and_bash(words):
    """Words of any characters but NUL (the one no command line passes): each shell hands them to python as they
    are, and runs nothing of them."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "paper").mkdir()
        script = tmp / "paper" / "reproduce.sh"
        script.write_bytes(_script([reproduce.line([*reproduce.PROG.split(), "compare", *words])]).encode("utf-8"))
        assert _run_everywhere(script, tmp) == [["-m", "sigcore", "compare", *words]]


def test_the_script_shows_an_escaped_copy_above_a_command_with_control_or_bidi_characters():
    command = reproduce.line(["python", "-m", "sigcore", "compare", "a\nb.csv", "--a", "sys\u202etxt"])
    text = _script([command, reproduce.line(["python", "-m", "sigcore", "compare", "plain.csv"])])
    lines = text.splitlines()
    at = lines.index("# s0")
    assert lines[at + 1] == "# the command below, its control and invisible characters escaped:"
    assert lines[at + 2] == "# python -m sigcore compare 'a\\x0ab.csv' --a 'sys\\u202etxt'"
    assert lines[at + 3:at + 5] == ["python -m sigcore compare 'a", "b.csv' --a 'sys\u202etxt'"]
    at = lines.index("# s1")  # a plain command has no copy
    assert lines[at + 1] == "python -m sigcore compare plain.csv"
    nul = _script([reproduce.line(["python", "compare", "a\x00b"])])  # written as a comment only
    assert "\x00" not in nul and "# cannot run: a name holds a NUL character" in nul


def test_a_terminal_shows_the_command_on_one_line_and_says_when_it_is_escaped():
    command = reproduce.line(["python", "compare", "a\nsignificant\x1b[31m", "x\u202ey"])
    text, note = reproduce.shown(command)
    assert "\n" not in text and "\x1b" not in text and "\u202e" not in text and note == reproduce.ESCAPED
    assert reproduce.shown("python compare plain.csv") == ("python compare plain.csv", None)


# ---------------------------------------------------------------- §1: through the command line


def _table(path: Path, gold: str, a: str, b: str, labels=("x", "y")) -> None:
    import csv

    x, y = labels
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow([gold, a, b])
        for i in range(40):
            w.writerow([x if i % 2 else y, x if i % 2 or i % 3 == 0 else y, x])


def _flag_value(args: list[str], flag: str) -> str:
    for i, arg in enumerate(args):
        if arg == flag:
            return args[i + 1]
        if arg.startswith(flag + "="):
            return arg[len(flag) + 1:]
    raise AssertionError(f"{flag} not in {args}")


@pytest.mark.parametrize("name, gold, a, b", [
    (f"a\n'||{PWN};#.csv", f"g$({PWN})", f"-a`{PWN}`\t\"x\"", f"b\u202e|{PWN} #'"),
    (f"-d';{PWN};'.csv", f"\r{PWN}", "; echo $HOME", "back\\slash"),
], ids=["newline-quote", "leading-dash"])
def test_compare_s_script_passes_hostile_file_and_column_names_exactly(tmp_path, capsys, name, gold, a, b):
    data = tmp_path / "data"
    data.mkdir()
    _table(data / name, gold, a, b)
    out = data if name.startswith("-") else tmp_path / "paper"  # in the data's folder: the file is ./-d...
    assert main(["compare", str(data / name), "--gold", gold, "--a=" + a, "--b", b, "--paper", str(out)]) == 0
    (args,) = _run_everywhere(out / "reproduce.sh", tmp_path)
    expected = os.path.join(".", name) if name.startswith("-") else os.path.relpath(data / name, out)
    assert args[3] == expected and [_flag_value(args, f) for f in ("--gold", "--a", "--b")] == [gold, a, b]


def test_a_file_name_that_is_not_utf8_goes_back_as_its_own_bytes(tmp_path):
    """Linux file names are bytes: one that is not UTF-8 reaches Python as surrogates, and the script as its bytes."""
    name = os.fsdecode(b"bad\xff name.csv")
    words = [*reproduce.PROG.split(), "compare", os.path.join("..", name), "--a", "\udcfe"]
    res = sigcore.compare([1, 0, 1, 1], [1, 0, 1, 0], [1, 1, 1, 1], test="t")
    paper.write(tmp_path / "paper", paper.for_result(res, a=name, b="y", command=reproduce.line(words)))
    assert b"'../bad\xff name.csv'" in (tmp_path / "paper" / "reproduce.sh").read_bytes()
    assert _run_everywhere(tmp_path / "paper" / "reproduce.sh", tmp_path) == [words[1:]]


@pytest.mark.slow  # the folder's figure through kaleido; reruns reproduce.sh under three shells
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_script_recreates_the_hostile_comparison_s_signature(tmp_path, capsys):
    """The real command, run by dash from another folder, reads the same file and columns: the same signature."""
    name, gold, a, b = f"a\n'||{PWN};#.csv", f"g$({PWN})", f"-a`{PWN}`\t\"x\"", f"b\u202e|{PWN} #'"
    _table(tmp_path / name, gold, a, b)
    assert main(["compare", str(tmp_path / name), "--gold", gold, "--a=" + a, "--b", b, "--test", "bootstrap",
                 "--resamples", "200", "--paper", str(tmp_path / "paper")]) == 0
    signature = capsys.readouterr().out.splitlines()[-1]
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')  # the venv's, as `python` on PATH
    python.chmod(0o755)
    done = subprocess.run(["sh", str(tmp_path / "paper" / "reproduce.sh")], cwd=python.parent, capture_output=True,
                          text=True, env={"PATH": f"{python.parent}:/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == signature and not list(tmp_path.rglob("PWNED"))


@pytest.mark.slow  # the folder's figure through kaleido; reruns reproduce.sh under three shells
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_a_hostile_positive_label_reaches_the_command_exactly(tmp_path, capsys):
    label = f"p\n';{PWN};'"
    _table(tmp_path / "t.csv", "gold", "A", "B", labels=(label, "n"))
    assert main(["compare", str(tmp_path / "t.csv"), "--metric", "f1", "--positive-label", label, "--paper",
                 str(tmp_path / "paper")]) == 0
    (args,) = _run_everywhere(tmp_path / "paper" / "reproduce.sh", tmp_path)
    assert _flag_value(args, "--positive-label") == label


def test_seeds_script_passes_hostile_names_and_files_exactly(tmp_path, capsys):
    """`seeds` writes its line from the command as given (reproduce.rerun): --name values and a file named '-...'
    in the folder itself (./-...)."""
    scores = tmp_path / "-s';touch PWNED'.csv"
    shutil.copy(SEEDS, scores)
    names = [f"mlp=M\n'; {PWN} #", f"forest=F$({PWN})\u202e"]
    assert main(["seeds", str(scores), "--resamples", "100", "--name", names[0], "--name=" + names[1],
                 "--paper", str(tmp_path), "--replace"]) == 0
    (args,) = _run_everywhere(tmp_path / "reproduce.sh", tmp_path)
    assert args[3] == "./" + scores.name and "--replace" not in args and "--paper" not in args
    assert [a for a in args if "mlp=" in a or "forest=" in a] == [names[0], "--name=" + names[1]]


def test_the_terminal_s_reproduce_line_is_escaped_and_says_so(tmp_path, capsys):
    _table(tmp_path / "t.csv", "gold", "sys\u202etxt.exe", "B\nsignificant")
    assert main(["compare", str(tmp_path / "t.csv")]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("reproduce: "))
    assert "--a 'sys\\u202etxt.exe' --b 'B\\x0asignificant'" in lines[at]
    assert lines[at + 1] == f"  ({reproduce.ESCAPED})"


# ---------------------------------------------------------------- §9: where it runs, and without sigcore


def test_the_script_says_how_to_install_sigcore_when_python_cannot_import_it(tmp_path, capsys):
    _table(tmp_path / "t.csv", "gold", "A", "B")
    assert main(["compare", str(tmp_path / "t.csv"), "--paper", str(tmp_path / "paper")]) == 0
    for shell in SHELLS:
        log = tmp_path / f"{shell}.jsonl"
        done = _run_script(tmp_path / "paper" / "reproduce.sh", shell, _stub(tmp_path / "bin", log, importable=False),
                           cwd=tmp_path)
        assert done.returncode == 1 and done.stdout == b""
        assert done.stderr.decode() == ("reproduce.sh: python cannot import sigcore: install it for this python (in "
                                        "sigcore's source folder: pip install -e .), then run this again.\n")
        assert [args for _, args in _calls(log)] == [["-c", "import sigcore"]]  # no command ran


# ---------------------------------------------------------------- §2: only its own files, only inside DIR


def _compare(tmp_path: Path, out: Path, *extra: str) -> int:
    if not (tmp_path / "t.csv").exists():
        _table(tmp_path / "t.csv", "gold", "A", "B")
    return main(["compare", str(tmp_path / "t.csv"), "--paper", str(out), *extra])


STEM_FILES = ["accuracy-a-vs-b-sentence.tex", "accuracy-a-vs-b-table.tex", "accuracy-a-vs-b.json"]


@pytest.mark.parametrize("name", ["reproduce.sh", "checklist.md", "sigcore.bib", "manifest.json", STEM_FILES[0]])
@pytest.mark.parametrize("before", [False, True], ids=["new-folder", "written-before"])
def test_a_link_in_the_folder_is_never_followed(tmp_path, capsys, name, before):
    outside = tmp_path / "outside.txt"
    outside.write_text("mine\n")
    outside.chmod(0o600)
    out = tmp_path / "paper"
    if before:
        assert _compare(tmp_path, out) == 0
        (out / name).unlink()
    out.mkdir(exist_ok=True)
    (out / name).symlink_to(outside)
    manifest = (out / "manifest.json").read_bytes() if before and name != "manifest.json" else None
    for extra in ([], ["--replace"]):
        assert _compare(tmp_path, out, *extra) == 2
        err = capsys.readouterr().err
        assert f"error: {out / name}: is a symbolic link (to {outside})" in err and "failed unexpectedly" not in err
        assert outside.read_text() == "mine\n" and stat.S_IMODE(outside.stat().st_mode) == 0o600
        assert (out / name).is_symlink()
        if manifest is not None:  # nothing was written
            assert (out / "manifest.json").read_bytes() == manifest


@pytest.mark.slow  # the paper folder's figure through kaleido
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_a_hard_link_to_a_file_outside_is_replaced_not_written_through(tmp_path, capsys):
    out = tmp_path / "paper"
    assert _compare(tmp_path, out) == 0
    outside = tmp_path / "outside.sh"
    os.link(out / "reproduce.sh", outside)  # the same bytes: sigcore's by its sum, and also a file outside
    before = outside.read_bytes()
    assert _compare(tmp_path, out, "--resamples", "123", "--test", "bootstrap") == 0
    assert outside.read_bytes() == before and "--resamples 123" in (out / "reproduce.sh").read_text()


@pytest.mark.parametrize("name, why", [("reproduce.sh", "not written by sigcore"),
                                       ("checklist.md", "not written by sigcore"),
                                       (STEM_FILES[1], "not written by sigcore")])
def test_a_file_sigcore_did_not_write_is_refused_then_replaced_with_replace(tmp_path, capsys, name, why):
    out = tmp_path / "paper"
    out.mkdir()
    (out / name).write_text("#!/bin/sh\nmake paper\n")
    assert _compare(tmp_path, out) == 2
    err = capsys.readouterr().err
    assert err == (f"error: {out}: sigcore would replace {name} ({why}); it replaces only the files it wrote, as it "
                   "wrote them. Nothing was written. Give another folder (--paper OTHER), or add --replace to replace "
                   "it.\n")
    assert sorted(p.name for p in out.iterdir()) == [name] and (out / name).read_text() == "#!/bin/sh\nmake paper\n"
    assert _compare(tmp_path, out, "--replace") == 0
    assert f"replaced (--replace) {name}, {why}" in capsys.readouterr().err
    assert (out / name).read_text() != "#!/bin/sh\nmake paper\n"
    assert _compare(tmp_path, out) == 0  # now sigcore's


def test_a_file_changed_since_sigcore_wrote_it_is_refused_and_bib_edits_are_kept(tmp_path, capsys):
    out = tmp_path / "paper"
    assert _compare(tmp_path, out) == 0
    said = capsys.readouterr().err.splitlines()[-1]
    assert said == (f"paper folder {out}: wrote {', '.join(STEM_FILES)}, sigcore.bib, reproduce.sh, checklist.md, "
                    "manifest.json")
    with open(out / "sigcore.bib", "a") as f:
        f.write("@misc{mine, title={Kept}}\n")
    assert _compare(tmp_path, out) == 0  # the .bib is only added to: an edit is no reason to refuse
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"paper folder {out}: wrote {', '.join(STEM_FILES)}; merged this result into sigcore.bib, reproduce.sh, "
        "checklist.md, manifest.json")
    assert "@misc{mine, title={Kept}}" in (out / "sigcore.bib").read_text()
    with open(out / "checklist.md", "a") as f:
        f.write("My answer.\n")
    assert _compare(tmp_path, out) == 2
    assert "sigcore would replace checklist.md (changed since sigcore wrote it)" in capsys.readouterr().err
    assert (out / "checklist.md").read_text().endswith("My answer.\n")


def test_the_folder_s_files_keep_the_umask_s_modes_and_the_script_runs(tmp_path, capsys):
    out = tmp_path / "paper"
    assert _compare(tmp_path, out) == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((out / "reproduce.sh").stat().st_mode) == 0o777 & ~umask
    assert stat.S_IMODE((out / "checklist.md").stat().st_mode) == 0o666 & ~umask
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left


VALID_CLAIM = {"metric": "accuracy", "a": "A", "b": "B", "items": 40, "decision": 0, "how": "p = 0.5"}


def _manifest(stems=None, **top) -> str:
    stems = {"x-vs-y": {"files": [], "claims": [VALID_CLAIM], "command": "true", "checklist": "## x-vs-y\n"}} \
        if stems is None else stems
    return json.dumps({"sigcore_paper_folder": 2, "files": {}, "stems": stems, **top})


def _stem(**change) -> dict:
    return {"x-vs-y": {"files": [], "claims": [VALID_CLAIM], "command": "true", "checklist": "", **change}}


@pytest.mark.parametrize("text, said", [
    ("{not json", "manifest.json, line 1, column 2: is not JSON (Expecting property name"),
    ("[]", "is not the manifest of a sigcore paper folder"),
    ('{"accuracy-a-vs-b": {"files": [], "claims": []}}', "was written by an earlier sigcore, which recorded no "
                                                         "checksums"),
    (_manifest(extra=1), "the manifest has a key sigcore does not write: 'extra'"),
    (_manifest(files={"reproduce.sh": "abc"}), '"files" must map file names to the sha256'),
    (_manifest(files={"../x": "0" * 64}), '"files" must map file names to the sha256'),
    (_manifest(stems=[]), '"stems" must be an object, not a list'),
    (_manifest(stems={"Bad Name\n": {}}), "stem 'Bad Name\\n' is not a name sigcore gives"),
    (_manifest(stems=_stem(command=3)), 'stem x-vs-y: "command" must be text, not a number'),
    (_manifest(stems={"x-vs-y": {"files": [], "claims": []}}), 'stem x-vs-y lacks "checklist"'),
    (_manifest(stems=_stem(files=["a/b.tex"])), 'stem x-vs-y: "files" must be a list of file names'),
    (_manifest(stems=_stem(claims=[{**VALID_CLAIM, "bonus": 1}])),
     "stem x-vs-y, claim 1 has a key sigcore does not write: 'bonus'"),
    (_manifest(stems=_stem(claims=[{**VALID_CLAIM, "items": "40"}])), "stem x-vs-y, claim 1 \"items\" is '40', not"),
    (_manifest(stems=_stem(claims=[{**VALID_CLAIM, "decision": True}])), "claim 1 \"decision\" is True, not an "),
    (_manifest(stems=_stem(claims=[{**VALID_CLAIM, "decision": 2}])), "has a decision other than -1, 0 or 1"),
    (_manifest(stems=_stem(claims=[7])), 'stem x-vs-y: "claims" must be a list of objects'),
    ("[" * 100_000, "is not JSON that sigcore reads (RecursionError)"),
    ("1" * 5000, "is not JSON that sigcore reads (ValueError)"),
    (b"\xff\xfe{}", "is not UTF-8 text (byte 1)"),
], ids=["not-json", "a-list", "earlier-shape", "unknown-key", "bad-sum", "path-in-files", "stems-list", "stem-name",
        "command-number", "lacks-checklist", "path-in-stem-files", "claim-unknown-key", "items-text", "decision-bool",
        "decision-2", "claim-number", "nested", "long-integer", "not-utf8"])
def test_a_damaged_manifest_is_a_precise_error_and_nothing_is_written(tmp_path, capsys, text, said):
    out = tmp_path / "paper"
    out.mkdir()
    (out / "manifest.json").write_bytes(text if isinstance(text, bytes) else text.encode())
    assert _compare(tmp_path, out) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {out / 'manifest.json'}") and said in err and "failed unexpectedly" not in err
    assert "add --replace to replace it" in err and sorted(p.name for p in out.iterdir()) == ["manifest.json"]
    assert _compare(tmp_path, out, "--replace") == 0  # a new manifest, this run's
    assert "replaced (--replace) manifest.json, " in capsys.readouterr().err
    assert list(json.loads((out / "manifest.json").read_text())["stems"]) == ["accuracy-a-vs-b"]


def test_replace_is_refused_without_paper(tmp_path, capsys):
    _table(tmp_path / "t.csv", "gold", "A", "B")
    assert main(["compare", str(tmp_path / "t.csv"), "--replace"]) == 2
    assert "error: --replace is for --paper DIR" in capsys.readouterr().err


# ---------------------------------------------------------------- §2: the app's zip, under the same rule


def _entry(command: str = "compare") -> paper.Entry:
    res = sigcore.compare([1, 0, 1, 1], [1, 0, 1, 0], [1, 1, 1, 1], test="t")
    return paper.for_result(res, a="x", b="y", command=command)


def test_an_earlier_zip_with_an_edited_or_foreign_file_is_refused_unless_replaced():
    earlier = paper.unzipped(paper.zipped(_entry("first")))
    assert paper.unzipped(paper.zipped(_entry("second"), earlier))  # as downloaded: merged
    for name, content, why in (("checklist.md", earlier["checklist.md"] + b"My answer.\n", "changed since sigcore "
                                                                                           "wrote it"),
                               ("accuracy-x-vs-y-table.tex", b"mine", "changed since sigcore wrote it")):
        changed = {**earlier, name: content}
        with pytest.raises(SigcoreError) as info:
            paper.zipped(_entry("second"), changed, name="old.zip")
        assert str(info.value) == (f"old.zip, sigcore: sigcore would replace {name} ({why}); it replaces only the "
                                   "files it wrote, as it wrote them. Give the .zip as it was downloaded, or tick "
                                   "\"Replace them\".")
        files = paper.unzipped(paper.zipped(_entry("second"), changed, replace=True))
        assert files[name] != content and "\nsecond\n" in files["reproduce.sh"].decode()
    foreign = {k: v for k, v in earlier.items() if k != "manifest.json"}  # no record: none of it is sigcore's
    with pytest.raises(SigcoreError, match=r"would replace accuracy-x-vs-y-sentence.tex \(not written by sigcore\)"):
        paper.zipped(_entry(), foreign)
    with pytest.raises(SigcoreError, match=r"old.zip, sigcore/manifest.json, line 1, column 2: is not JSON"):
        paper.zipped(_entry(), {**earlier, "manifest.json": b"{not json"}, name="old.zip")


def test_the_app_refuses_an_edited_zip_until_replace_is_ticked():
    from ui.safe import md

    from helpers.apps import app, run

    at = run(app())
    earlier = paper.unzipped(paper.zipped(_entry()))
    earlier["checklist.md"] += b"My answer.\n"
    import io
    import zipfile

    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as z:
        for name, content in earlier.items():
            z.writestr(f"sigcore/{name}", content)
    at.get("file_uploader")[-1].set_value([("old.zip", data.getvalue(), "application/zip")]).run()
    assert not at.exception and [e.value for e in at.error] == [md(
        "old.zip, sigcore: sigcore would replace checklist.md (changed since sigcore wrote it); it replaces only the "
        "files it wrote, as it wrote them. Give the .zip as it was downloaded, or tick \"Replace them\".")]

    def button():
        return next(b for b in at.get("download_button") if b.proto.label == "Paper folder (.zip)")
    assert button().proto.disabled
    next(c for c in at.checkbox if c.label == "Replace them").check().run()
    assert not at.exception and not button().proto.disabled

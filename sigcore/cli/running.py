"""Running a command: its errors as one line (status 2, the parameter named by its flag), never a traceback; no
control character of the data on the terminal; the progress line of a long run; and the outputs every command
writes alike (a file, rows of a table, the readers' notes, a paper folder's entry)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from .. import budget
from ..errors import SettingsError, SigcoreError
from ..report import paper
from ..words import in_text, printable
from .options import on_command_line

__all__ = ["run", "checked", "message", "progress", "Printable", "write", "print_rows", "say_notes", "write_paper",
           "folder_name"]


def run(command, args) -> int:
    """Run a command; bad input is one line on stderr (status 2), never a traceback; no control character of
    the data reaches the terminal."""
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Printable(sys.stdout), Printable(sys.stderr)
    try:
        return checked(command, args)
    finally:
        sys.stdout, sys.stderr = streams


def checked(command, args) -> int:
    """``command(args)``, its error said as :func:`message` says it (status 2), a bug in one line (status 3)."""
    try:
        if getattr(args, "replace", False) and not args.paper:  # said, not ignored
            raise SettingsError("--replace is for --paper DIR", hint="It lets this run replace the files of a paper "
                                "folder that sigcore did not write; add --paper DIR, or leave it out.")
        return command(args)
    except SigcoreError as e:
        print(f"error: {message(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped reading (python -m sigcore ... | head): nothing went wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit flush does not fail
        return 0
    except Exception as e:  # a bug, not the user's fault: still one line, and how to report it
        print(f"error: sigcore failed unexpectedly ({type(e).__name__}: {e}). Please report it with the command "
              "you ran.", file=sys.stderr)
        return 3


def message(error: SigcoreError) -> str:
    """An error as the command line prints it: the engine's parameter named by its flag, and a run over its budget
    told how to raise the limit."""
    said = str(on_command_line(error))
    if isinstance(error, budget.BudgetError):  # on one's own machine the limit is one's own to raise
        said += f" Or raise the limit: --budget {error.work * 1.01:.1e} (or none)."
    return said


def progress(what: str):
    """A line on the terminal that says how far a long run has got (none when stderr is not a terminal, as in a
    pipe or a log), redrawn at most twice a second and cleared at the end; Ctrl-C stops the run."""
    stream = sys.__stderr__
    if stream is None or not stream.isatty():
        return None
    start, last = time.monotonic(), [0.0]

    def report(done: float) -> None:
        now = time.monotonic()
        if done < 1 and (now - last[0] < 0.5 or now - start < 1):  # a short run draws nothing
            return
        last[0] = now
        stream.write(f"\r{printable(what)}: {done:.0%}" + ("\r\x1b[K" if done >= 1 else ""))
        stream.flush()
    return report


class Printable:
    """A text stream that writes control characters as \\xNN: a file name with an ANSI escape, a bell or a
    carriage return is shown, never obeyed by the terminal."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(printable(text, keep="\n\t"))  # all but newlines and tabs of its own

    def __getattr__(self, name):
        return getattr(self.stream, name)


# ---------------------------------------------------------------- outputs

def write(path: str, content: str | bytes) -> None:
    """Write a file the command was asked for (a saved result, a figure, a page); a failure is the user's to fix."""
    try:
        Path(path).write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    except OSError as e:
        raise SettingsError(f"cannot write {path} ({e.strerror})") from None


def print_rows(header: list[str], rows: list[list[str]]) -> None:
    """A table as aligned columns, one line per row."""
    rows = [[in_text(c) for c in r] for r in [header, *rows]]  # a model's or a task's name is one cell of one line
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def say_notes(frame) -> None:
    """What the logs' readers noted (HELM's instances left out, the split compared), as every command says it."""
    for note in frame.attrs.get("notes", []):
        print(f"note: {note}", file=sys.stderr)


def write_paper(args, entry: paper.Entry) -> None:
    """Write a paper folder's entry; say what was written, merged and replaced, and where outputs disagree."""
    done = paper.write(args.paper, entry, replace=args.replace)
    for warning in done.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    said = [f"wrote {', '.join(done.wrote)}", *([f"merged this result into {', '.join(done.merged)}"] if done.merged
                                                else [])]
    said += [f"replaced (--replace) {name}, {why}" for name, why in done.replaced.items()]
    print(f"paper folder {args.paper}: {'; '.join(said)}", file=sys.stderr)


def folder_name(folder: str) -> str:
    r"""How the paper's main file reaches the folder (\sigcoredir): by its name, as a folder beside the main file
    (``.`` when it is the current folder, the main file's own)."""
    path = Path(folder).resolve()
    return "." if path == Path.cwd().resolve() else path.name

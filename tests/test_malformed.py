"""A table of malformed inputs: each gets its own kind of error, naming the place, on the command line.

Each case writes files, runs ``python -m sigcore compare`` in-process, and checks the exit status (2), that
stderr is one line with no traceback, the message, and the place (file, line, column) in front of it.
"""

import gzip
import json

import pytest

from sigcore.__main__ import main

LM = {"doc": {}, "arguments": [], "resps": [], "filter": "none", "metrics": ["acc"], "doc_hash": "h",
      "prompt_hash": "h", "target_hash": "h"}


def lm(doc_id, target="1", acc=1.0, **extra):
    return json.dumps({"doc_id": doc_id, **LM, "target": target, "filtered_resps": ["x"], "acc": acc, **extra})


def jsonl(*records):
    return "\n".join(records) + "\n"


GOLD3 = "a\nb\nc\n"
CSV = "id,gold,A,B\n"
# (case, {file: content}, extra args, message fragment, where: (file, line, column) or None)
CASES = [
    ("empty file", {"a.txt": b"", "g.txt": GOLD3, "b.txt": GOLD3}, ["g.txt", "a.txt", "b.txt"], [],
     "the file is empty", ("a.txt", None, None)),
    ("whitespace only", {"t.csv": b"  \n\n"}, ["t.csv"], [], "the file is empty", ("t.csv", None, None)),
    ("binary", {"t.csv": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}, ["t.csv"], [], "binary", ("t.csv", None, None)),
    ("invalid UTF-8", {"t.csv": b"gold,A,B\nx,y,\xff\n"}, ["t.csv"], [], "byte 0xff is not valid UTF-8",
     ("t.csv", 2, 5)),
    ("latin-1 undeclared", {"g.txt": "caf\u00e9\n".encode("latin-1"), "a.txt": b"x\n", "b.txt": b"y\n"},
     ["g.txt", "a.txt", "b.txt"], [], "byte 0xe9 is not valid UTF-8", ("g.txt", 1, 4)),
    ("unknown encoding", {"t.csv": CSV + "1,x,x,y\n"}, ["t.csv"], ["--encoding", "klingon"], "klingon", None),
    ("header only", {"t.csv": CSV}, ["t.csv"], [], "header but no rows", ("t.csv", 2, None)),
    ("too many fields", {"t.csv": CSV + "1,x,x,y\n2,x,x,y,z\n"}, ["t.csv"], [], "fields", ("t.csv", 3, None)),
    ("too few fields", {"t.csv": CSV + "1,x,x,y\n2,x\n"}, ["t.csv"], [], "fields", ("t.csv", 3, None)),
    ("unclosed quote", {"t.csv": CSV + '1,x,"x,y\n2,x,x,y\n'}, ["t.csv"], [], "quote", ("t.csv", 2, None)),
    ("duplicate column", {"t.csv": "id,gold,A,A\n1,x,x,y\n"}, ["t.csv"], [], "'A'", ("t.csv", 1, 4)),
    ("empty column name", {"t.csv": "id,gold,,B\n1,x,x,y\n"}, ["t.csv"], [], "column", ("t.csv", 1, 3)),
    ("JSON lines syntax", {"t.jsonl": '{"gold": "x", "A": "x", "B": "y"}\n{"gold": "x", "A": }\n'}, ["t.jsonl"], [],
     "JSON", ("t.jsonl", 2, 20)),
    ("JSON line not an object", {"t.jsonl": '{"gold": "x", "A": "x", "B": "y"}\n["x", "x", "y"]\n'}, ["t.jsonl"], [],
     "object", ("t.jsonl", 2, None)),
    ("JSON not records", {"t.json": '"just a string"'}, ["t.json"], [], "JSON", ("t.json", 1, None)),
    ("gzip corrupted", {"t.csv.gz": gzip.compress((CSV + "1,x,x,y\n").encode())[:20]}, ["t.csv.gz"], [], "gzip",
     ("t.csv.gz", None, None)),
    ("unknown column", {"t.csv": CSV + "1,x,x,y\n"}, ["t.csv"], ["--b", "C"], "no column 'C' for B",
     ("t.csv", 1, None)),
    ("one system column", {"t.csv": "id,gold,A\n1,x,x\n"}, ["t.csv"], [], "two system columns", ("t.csv", 1, None)),
    ("blank gold", {"t.csv": CSV + "1,x,x,y\n2, ,x,y\n"}, ["t.csv"], [], "gold value is blank", ("t.csv", 3, None)),
    ("duplicate id", {"t.csv": "key,gold,A,B\n1,x,x,y\n1,y,y,y\n", "g.csv": "key,gold\n1,x\n1,y\n",
                      "a.csv": "key,pred\n1,x\n2,y\n", "b.csv": "key,pred\n1,x\n2,y\n"},
     ["g.csv", "a.csv", "b.csv"], ["--id", "key"], "id '1' occurs twice (also on line 2)", ("g.csv", 3, None)),
    ("id missing from a file", {"g.csv": "id,gold\n1,x\n2,y\n", "a.csv": "id,pred\n1,x\n2,y\n",
                                "b.csv": "id,pred\n1,x\n"},
     ["g.csv", "a.csv", "b.csv"], ["--id", "id"], "lacks 1 id that g.csv has (the first is '2', on line 3 of g.csv)",
     ("b.csv", None, None)),
    ("extra id", {"g.csv": "id,gold\n1,x\n", "a.csv": "id,pred\n1,x\n", "b.csv": "id,pred\n1,x\n7,y\n"},
     ["g.csv", "a.csv", "b.csv"], ["--id", "id"], "the first is '7', on line 3 of b.csv", ("g.csv", None, None)),
    ("no shared ids", {"g.csv": "id,gold\n1,x\n", "a.csv": "id,pred\n2,x\n", "b.csv": "id,pred\n3,x\n"},
     ["g.csv", "a.csv", "b.csv"], ["--id", "id", "--drop-unmatched"], "share no ids", ("g.csv", None, None)),
    ("id column missing", {"g.csv": "id,gold\n1,x\n", "a.csv": "nr,pred\n1,x\n", "b.csv": "id,pred\n1,x\n"},
     ["g.csv", "a.csv", "b.csv"], ["--id", "id"], "no column 'id' for id", ("a.csv", 1, None)),
    ("lengths differ", {"g.txt": GOLD3, "a.txt": GOLD3, "b.txt": "a\nb\n"}, ["g.txt", "a.txt", "b.txt"],
     ["--gold-file", "g.txt"],
     "has 2 items but g.txt has 3", ("b.txt", 2, None)),
    ("too many files", {"g.txt": GOLD3}, ["g.txt"] * 4, [], "got 4 files", None),
    ("no gold for accuracy", {"a.txt": GOLD3, "b.txt": GOLD3}, ["a.txt", "b.txt"], [], "needs gold labels", None),
    ("CoNLL column count", {"a.conll": "John B-PER B-PER\nlives O\n"}, ["a.conll"], ["--metric", "span_f1"],
     "found 2 columns, expected 3", ("a.conll", 2, 3)),
    ("CoNLL bad tag", {"a.conll": "# tokens gold A B\nJohn B-PER X-PER B-PER\nlives O O O\n\nParis B-LOC O O\n"},
     ["a.conll"], ["--metric", "span_f1"], "X-PER", ("a.conll", 2, None)),
    ("CoNLL gold differs", {"a.conll": "John B-PER B-PER\n\nParis B-LOC B-LOC\n",
                            "b.conll": "John B-PER O\n\nParis B-ORG O\n"},
     ["a.conll", "b.conll"], ["--metric", "span_f1"], "other tokens or gold tags", ("b.conll", 3, None)),
    ("lm-eval not JSON", {"samples_a.jsonl": lm(0) + "\n{oops\n", "samples_b.jsonl": jsonl(lm(0), lm(1))},
     ["samples_a.jsonl", "samples_b.jsonl"], ["--metric", "acc"], "JSON", ("samples_a.jsonl", 2, 2)),
    ("lm-eval missing field", {"samples_a.jsonl": jsonl(lm(0), json.dumps({"doc_id": 1, "target": "1"})),
                               "samples_b.jsonl": jsonl(lm(0), lm(1))},
     ["samples_a.jsonl", "samples_b.jsonl"], ["--metric", "acc"], "no 'filtered_resps' field",
     ("samples_a.jsonl", 2, "filtered_resps")),
    ("lm-eval duplicate doc", {"samples_a.jsonl": jsonl(lm(0), lm(0)), "samples_b.jsonl": jsonl(lm(0), lm(1))},
     ["samples_a.jsonl", "samples_b.jsonl"], ["--metric", "acc"], "appears twice, on lines 1 and 2",
     ("samples_a.jsonl", 2, "doc_id")),
    ("lm-eval other task", {"samples_a.jsonl": jsonl(lm(0, "1")), "samples_b.jsonl": jsonl(lm(0, "2"))},
     ["samples_a.jsonl", "samples_b.jsonl"], ["--metric", "acc"], "has target '1' here but '2'",
     ("samples_a.jsonl", 1, None)),
    ("lm-eval unknown score", {"samples_a.jsonl": jsonl(lm(0)), "samples_b.jsonl": jsonl(lm(0))},
     ["samples_a.jsonl", "samples_b.jsonl"], ["--metric", "rouge"], "unknown metric 'rouge'", None),
    ("non-numeric score", {"s.csv": "id,sys1,sys2\n1,0.5,0.2\n2,0.1,n/a\n"}, ["s.csv"], ["--metric", "mean"],
     "n/a", ("s.csv", 3, None)),
    ("test does not fit", {"t.csv": CSV + "1,x,x,y\n"}, ["t.csv"], ["--metric", "macro_f1", "--test", "mcnemar"],
     "Tests that fit macro_f1", None),
    ("positive label unknown", {"t.csv": CSV + "1,a,b,c\n2,b,c,a\n"}, ["t.csv"], ["--metric", "f1"],
     "positive", None),
]


@pytest.mark.parametrize("files, args, extra, message, where", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_input_is_refused_with_its_place(tmp_path, monkeypatch, capsys, files, args, extra, message, where):
    monkeypatch.chdir(tmp_path)
    for name, content in files.items():
        (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    assert main(["compare", *args, *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    assert message in err
    if where is not None:
        file, line, column = where
        place = ", ".join([file] + ([f"line {line}"] if line else []) + ([f"column {column}"] if column else []))
        assert err.startswith(f"error: {place}: "), err


def test_there_are_at_least_thirty_kinds_of_malformed_input():
    assert len(CASES) >= 30 and len({c[0] for c in CASES}) == len(CASES)

"""The Compare page's "stop early" expander: the confidence sequence over the page's items in file order, its
sentence sigcore.sequential's, its figure's band the sequence's; per-item scores ask for their range first."""

import json

from sigcore import sequential
from ui.safe import md

from helpers.apps import app, on_slp3, run, slp3, upload


def _expander(at):
    return next(e for e in at.expander if e.label.startswith("Could evaluating have stopped early?"))


def _chart(at) -> dict:
    """The sequence's live chart: its figure and the frames the browser will play."""
    args = json.loads(next(c for c in at.get("component_instance") if "sequence-chart" in c.proto.id).proto.json_args)
    return {**args, "figure": json.loads(args["figure"])}


def test_right_wrong_items_get_their_sequence_and_its_figure():
    at = run(on_slp3(app()))
    box = _expander(at)
    gold, sys_a, sys_b = slp3()
    expected = sequential.run([int(x == g) for x, g in zip(sys_a, gold)], [int(x == g) for x, g in zip(sys_b, gold)])
    assert md(sequential.sentence(expected, "A", "B")) in [m.value for m in box.markdown]
    chart = _chart(at)
    assert chart["frames"] == []  # drawn whole until Play
    band = next(t for t in chart["figure"]["data"] if t.get("fill") == "tonexty")
    assert band["y"] == expected.lower.tolist()  # ten items: every one drawn


def test_play_grows_the_sequence_item_by_item_and_ends_on_the_whole_figure():
    at = run(on_slp3(app()))
    next(b for b in at.button if b.key == "sequence-play").click().run()
    chart = _chart(at)
    gold, sys_a, sys_b = slp3()
    expected = sequential.run([int(x == g) for x, g in zip(sys_a, gold)], [int(x == g) for x, g in zip(sys_b, gold)])
    frames, traces = chart["frames"], chart["figure"]["data"]
    assert [len(f["y"][1]) for f in frames] == list(range(1, 11))  # ten items: a frame per item
    for m, f in enumerate(frames, start=1):
        assert f["y"][1] == expected.lower[:m].tolist() and f["y"][2] == expected.estimate[:m].tolist()
        assert f["progress"] == m / 10 and f["texts"]["count"] == f"item {m:,} of 10"
        assert (", decided at item" in f["title"]) == (expected.stopped is not None and m >= expected.stopped)
        assert (f["y"][6] != []) == (m == 10)  # the fixed-n interval at n only once all items are in
    assert frames[-1]["y"][:5] == [t["y"] for t in traces[:5]]  # the play ends on the figure drawn whole


def test_a_corpus_metric_is_told_and_lm_eval_logs_decide_where_the_engine_does():
    from pathlib import Path

    at = run(app())  # the MT sample, BLEU
    assert "bleu is not one" in _expander(at).caption[0].value
    logs = Path(__file__).resolve().parents[1] / "sample_data" / "lm_eval"
    files = [(p.name, p.read_bytes()) for p in sorted(logs.glob("samples_arc_easy_model-*.jsonl"))]
    at = upload(app(), *files)
    next(s for s in at.selectbox if s.label == "Metric").set_value("acc").run()
    at = run(at)
    text = [m.value for m in _expander(at).markdown if "confidence sequence" in m.value]
    assert len(text) == 1 and "excludes 0 from item 178 of 300 on" in text[0]

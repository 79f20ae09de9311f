"""Evaluation logs of language models, read as the tools write them: Inspect AI's logs
(:mod:`sigcore.io.inspect_log`), lm-evaluation-harness's output folders (:mod:`~sigcore.logs.lm_eval_folder`;
its per-sample files by :mod:`sigcore.io.lmeval`) and HELM's run folders (:mod:`~sigcore.logs.helm_run`), and the
tidy long table they all become: one row per model, task, item, run and metric (:mod:`sigcore.logs.tidy`)."""

__all__: list[str] = []  # its modules, each imported by name

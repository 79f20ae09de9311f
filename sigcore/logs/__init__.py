"""Evaluation logs of language models, read as the tools write them (Inspect AI for now; lm-evaluation-harness's
per-sample files are read by :mod:`sigcore.io.lmeval`), and the tidy long table they all become: one row per
model, task, item, run and metric (:mod:`sigcore.logs.tidy`)."""

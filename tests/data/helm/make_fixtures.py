"""Writes the HELM fixtures: benchmark_output.zip, two of HELM's own tutorial scenarios (simple_mcqa,
simple_classification; simple_mcqa also with HELM's extra_space perturbation) run by ``helm-run`` offline for three toy models.

The models are this file's ``ParityGuesser`` client, registered as HELM model deployments in a local prod_env:
each answers a parity question right with its own probability, decided by a hash of its name and the prompt, so
every run is reproducible. simple_mcqa runs 3 train trials (HELM's replications with other in-context examples),
read as runs. Run with crfm-helm installed (not a dependency of sigcore):

    python -m venv helm-venv && helm-venv/bin/pip install crfm-helm==0.5.16
    PYTHONPATH=tests/data/helm helm-venv/bin/python tests/data/helm/make_fixtures.py
"""

import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict

MODELS = {"toy/careful": 0.85, "toy/hasty": 0.7, "toy/coin": 0.5}  # each model's chance of a right answer
RUNS = ["simple_mcqa:model={m}", "simple_classification:model={m}",
        "simple_mcqa:model={m},data_augmentation=extra_space"]  # each question also with its spaces doubled
HERE = Path(__file__).resolve().parent

try:  # the client HELM builds from the deployments below; importable without HELM for the docstring's sake
    from helm.clients.client import CachingClient
    from helm.common.request import GeneratedOutput, RequestResult, Token, wrap_request_time
except ImportError:  # pragma: no cover
    CachingClient = object


class ParityGuesser(CachingClient):
    """Answers the last parity question of a prompt right with probability ``skill``."""

    def __init__(self, cache_config, skill: float, name: str):
        super().__init__(cache_config=cache_config)
        self.skill, self.name = skill, name

    def make_request(self, request) -> RequestResult:
        prompt = request.prompt
        number = int(re.findall(r"(?:Is +|Number: +)(\d+)", prompt, re.IGNORECASE)[-1])
        draw = int(hashlib.sha256(f"{self.name}\n{prompt}".encode()).hexdigest()[:8], 16) / 16**8
        right = draw < self.skill
        even = (number % 2 == 0) == right
        text = ("A" if even else "B") if "A. Even" in prompt else ("Even" if even else "Odd")

        def do_it() -> Dict[str, Any]:
            return {"completions": [text]}

        response, cached = self.cache.get({"model": self.name, "prompt": prompt}, wrap_request_time(do_it))
        return RequestResult(success=True, cached=cached, request_time=response["request_time"],
                             request_datetime=response.get("request_datetime"), embedding=[],
                             completions=[GeneratedOutput(text=t, logprob=0.0, tokens=[Token(text=t, logprob=0.0)])
                                          for t in response["completions"]])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = Path(tmp) / "prod_env"
        env.mkdir()
        (env / "model_deployments.yaml").write_text("model_deployments:\n" + "".join(
            f"  - name: {m}\n    model_name: {m}\n    tokenizer_name: simple/tokenizer1\n"
            f"    max_sequence_length: 2048\n    client_spec:\n      class_name: make_fixtures.ParityGuesser\n"
            f"      args:\n        skill: {p}\n        name: {m}\n" for m, p in MODELS.items()))
        (env / "model_metadata.yaml").write_text("models:\n" + "".join(
            f"  - name: {m}\n    display_name: {m}\n    description: a toy\n    creator_organization_name: toy\n"
            f"    access: open\n    release_date: 2026-01-01\n    tags: [TEXT_MODEL_TAG]\n" for m in MODELS))
        out = Path(tmp) / "benchmark_output"
        for run in RUNS:
            trials = ["-t", "3"] if run == RUNS[0] else []
            subprocess.run([str(Path(sys.executable).with_name("helm-run")), "-r",
                            *[run.format(m=m) for m in MODELS], "--suite", "toy", "-m", "1000", *trials,
                            "--local-path", str(env), "-o", str(out), "--disable-cache"],
                           check=True, env={"PYTHONPATH": str(HERE), "PATH": "/usr/bin:/bin"})
        runs = out / "runs" / "toy"
        with zipfile.ZipFile(HERE / "benchmark_output.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for f in sorted(runs.glob("*/*.json")):  # the run folders only: no caches
                z.write(f, f"benchmark_output/runs/toy/{f.relative_to(runs).as_posix()}")
        shutil.rmtree(out)
    print((HERE / "benchmark_output.zip").stat().st_size, "bytes")


if __name__ == "__main__":
    main()

"""featurelab.search: a pipeline's points chosen by an Optuna sampler (Debian's python3-optuna) instead of drawn all
at once as `[search]` draws them. Each trial is a run of the pipeline with the sampled values as overrides, in a
directory named by their hash (RUN/trial-<16 hex digits>): a trial whose values were run before is that run again,
resumed, its finished jobs kept and not run twice, so a search stopped and started again, or a second study over the
same directory, reuses every trial it already has. The objective is the mean over seeds of a final metric."""

from __future__ import annotations

import hashlib
import json
import math
import os
from typing import Any, Dict, Mapping, Sequence, Tuple

DISTRIBUTIONS = ("uniform", "log-uniform", "int", "choice")


def _suggest(trial: Any, key: str, spec: Mapping[str, Any]) -> Any:
    """A value of `key` for the trial, from a distribution written as [search] writes it."""
    if not isinstance(spec, Mapping) or len(spec) != 1 or next(iter(spec)) not in DISTRIBUTIONS:
        raise ValueError(f"space[{key!r}]: expected one of {{'uniform': [a, b]}}, {{'log-uniform': [a, b]}}, "
                         f"{{'int': [a, b]}}, {{'choice': [...]}}; got {spec!r}")
    kind, values = next(iter(spec.items()))
    if kind == "choice":
        return trial.suggest_categorical(key, list(values))
    lo, hi = values
    if kind == "int":
        return trial.suggest_int(key, int(lo), int(hi))
    return trial.suggest_float(key, float(lo), float(hi), log=kind == "log-uniform")


def trial_directory(out: str, values: Mapping[str, Any]) -> str:
    """RUN/trial-<hash of the values>: the same values, the same directory."""
    text = json.dumps({k: values[k] for k in sorted(values)}, sort_keys=True)
    return os.path.join(out, "trial-" + hashlib.sha256(text.encode()).hexdigest()[:16])


def search(run_pipeline, to_overrides, pipeline, space: Mapping[str, Mapping[str, Any]], metric: str, n_trials: int,
           out: str, direction: str = "maximize", sampler: Any = None, study: Any = None, overrides: Sequence[str] = (),
           **run_options: Any) -> Tuple[Any, Dict[int, Any]]:
    import optuna  # only here: the rest of featurelab does not need it

    if direction not in ("maximize", "minimize"):
        raise ValueError("direction: 'maximize' or 'minimize'")
    study = study or optuna.create_study(direction=direction, sampler=sampler)
    runs: Dict[int, Any] = {}
    for _ in range(n_trials):
        trial = study.ask()
        values = {key: _suggest(trial, key, spec) for key, spec in space.items()}
        directory = trial_directory(out, values)
        result = run_pipeline(pipeline, set=[*overrides, *to_overrides(values)], out=directory, **run_options)
        finals = result.final[(result.final.metric == metric) & (result.final.source == "run")].value
        if finals.empty:
            known = sorted(result.final.metric.unique())
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            if result.jobs.status.eq("ok").any():  # a metric no job records: the caller's mistake, not the trial's
                raise ValueError(f"metric {metric!r} is not a final metric of {pipeline}; its jobs record: {', '.join(known)}")
            continue
        value = float(finals.mean())
        trial.set_user_attr("run", directory)
        study.tell(trial, value if math.isfinite(value) else None,
                   state=None if math.isfinite(value) else optuna.trial.TrialState.FAIL)
        runs[trial.number] = result
    return study, runs

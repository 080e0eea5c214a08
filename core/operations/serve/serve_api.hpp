// The JSON that `featurelab serve`'s page reads, built from the runs as RunWatch last read them:
//   runs()          every run: name, directory, jobs by state, its metrics, its sweep axes
//   jobs(r)         run r's jobs: index, seed, sweep point, state, last step, steps in all, reason, and the job
//                   its weights came from ([model] init_from)
//   series(r, m)    metric m of run r per sweep point and step: mean, mean ± std over the seeds there, and n
//   finals(r)       per sweep point, each metric's last value averaged over the jobs that finished
//   assertions(r)   asserts.json as the run wrote it (none yet: an empty list and why)
//   diff(a, b)      the operative configurations of runs a and b, key by key (featurelab diff)
//   provenance(r)   manifest.json and run.json's provenance
#pragma once

#include "operations/serve/run_watch.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace featurelab::serve_api {

nlohmann::json runs(const std::vector<RunWatch>& watches);
nlohmann::json jobs(const RunWatch& watch);
nlohmann::json series(const RunWatch& watch, const std::string& metric);
nlohmann::json finals(const RunWatch& watch);
nlohmann::json assertions(const RunWatch& watch);
nlohmann::json diff(const RunWatch& a, const RunWatch& b);
nlohmann::json provenance(const RunWatch& watch);

}  // namespace featurelab::serve_api

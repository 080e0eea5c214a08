// Checking a run's [[assert]] blocks: before it starts (grammar, metric prefixes, sweep keys and
// values named by selectors and `where`), and after (each prediction over the selected sweep
// points and seeds, with `at` and `over`).
#pragma once

#include "kernel/job/plan.hpp"
#include "results/run_records.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

// Throws ConfigError listing every problem.
void check_assertions(const RunPlan& plan);

// Every assertion over the finished jobs; logs each verdict. Returns (asserts.json, all held).
std::pair<nlohmann::json, bool> evaluate_assertions(const std::vector<AssertSpec>& asserts,
                                                    const std::vector<JobRecord>& jobs, spdlog::logger* log);

// "key=value key2=value2" (spaces or commas) -> pairs; throws featurelab::Error.
std::vector<std::pair<std::string, std::string>> parse_where(const std::string& text);
// Whether a point's value matches a where value: one of its alternatives "a|b|c".
bool where_matches(const std::string& alternatives, const std::string& value);

// A TOML string's text without its quotes: "\"mixup\"" -> "mixup".
std::string unquote(const std::string& value);

}  // namespace featurelab

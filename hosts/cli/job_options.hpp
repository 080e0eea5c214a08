// Options several subcommands share: whole-number counts, and the limits of each job (`run`, `job`).
#pragma once

#include <featurelab/core/session.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace featurelab::cli {

// A whole number of at least `least` for an option that counts something ("worker processes"):
// CLI11's own range check prints its bound as a 309-digit number, and a size_t option takes -1
// as 18446744073709551615.
CLI::Validator counting(const std::string& what, long long least);

// --job-timeout and --job-memory.
void add_job_limit_args(CLI::App* sub, JobLimits& args);

}  // namespace featurelab::cli

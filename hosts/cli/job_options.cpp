#include "job_options.hpp"

#include <fmt/format.h>

namespace featurelab::cli {

CLI::Validator counting(const std::string& what, long long least) {
  return CLI::Validator(
      [what, least](const std::string& text) -> std::string {
        long long value = 0;
        std::size_t used = 0;
        try {
          value = std::stoll(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size() || value < least) {
          return fmt::format("{} is not {}; give a whole number of at least {}", text, what, least);
        }
        return {};
      },
      "INT");
}

void add_job_limit_args(CLI::App* sub, JobLimits& args) {
  sub->add_option("--job-timeout", args.timeout,
                  "Seconds after which a job is killed and failed (0 = none; default: experiment.timeout)")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            double value = 0;
            try {
              value = std::stod(text);
            } catch (const std::exception&) {
              return {};  // not a number: the conversion says so
            }
            return value < 0 ? text + " is not a number of seconds; give 0 (no limit) or a positive number" : "";
          },
          "SECONDS"));
  sub->add_option("--job-memory", args.memory_mib, "Memory limit of each job in MiB (0 = none); a job over it fails")
      ->type_name("MIB");
}

}  // namespace featurelab::cli

// featurelab diff A B: the keys whose values differ between two operative configurations (runs, jobs or TOML
// files); exit 0 when none do, 1 when some do (as diff does), 2 when a side cannot be read.
#include "commands.hpp"

#include <featurelab/core/config_diff.hpp>
#include <featurelab/core/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

namespace featurelab::cli {

Action add_diff_command(CLI::App& app, const GlobalOptions&) {
  auto* sub = app.add_subcommand(
      "diff", "The settings that differ between two runs, jobs or config.toml files, key by key (exit 1 when some do)");
  auto left = std::make_shared<std::string>();
  auto right = std::make_shared<std::string>();
  sub->add_option("A", *left, "A run directory, a job directory (RUN/jobs/NNNN-…) or a TOML file")->required();
  sub->add_option("B", *right, "The same for the other side")->required();
  return [left, right]() {
    const ConfigComparison c = compare_configurations(*left, *right);
    std::cout << fmt::format("{}\n{}\n{} of {} key(s) differ\n", c.left, c.right, c.differences.size(), c.keys);
    std::size_t width = 0;
    for (const auto& d : c.differences) width = std::max(width, d.key.size());
    for (const auto& d : c.differences) {
      std::cout << fmt::format("  {:<{}}  {}  →  {}\n", d.key, width, d.left.value_or("(absent)"), d.right.value_or("(absent)"));
    }
    constexpr int kExitDiffer = 1;  // as diff(1)
    return c.differences.empty() ? int(kExitOk) : kExitDiffer;
  };
}

}  // namespace featurelab::cli

// Probes: on the companion model and data, at step 0 and at a later step (probes that fix a
// reference at their first measurement take the other branch), every scalar and table is finite,
// every scalar is one of the metric names the probe declares (T::metrics(), which validate holds
// assertions to), and something is reported (at one of the two steps: some probes measure only at
// the last step).
#include "setup.hpp"

#include <featurelab/probe.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <fnmatch.h>

using namespace featurelab;

namespace {

// Whether a metric name matches the probe's declared names (patterns, '*' for any text), as
// `featurelab validate` reads them; a probe that declares none is not checked.
bool declared(const std::vector<std::string>& patterns, const std::string& name) {
  if (patterns.empty()) return true;
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return fnmatch(p.c_str(), name.c_str(), 0) == 0; });
}

void check_measurements(const Measurements& out, const std::vector<std::string>& metrics, const std::string& when) {
  INFO(when);
  for (const auto& [name, value] : out.scalars()) {
    INFO("scalar " << name << " = " << value);
    CHECK(std::isfinite(value));
    CHECK(declared(metrics, name));
  }
  for (const auto& [name, table] : out.tables()) {
    contract::require_finite(table.values, "table " + name);
    if (!table.row_names.empty()) CHECK(table.row_names.size() == static_cast<std::size_t>(table.values.rows()));
    if (!table.col_names.empty()) CHECK(table.col_names.size() == static_cast<std::size_t>(table.values.cols()));
  }
}

}  // namespace

TEST_CASE("probes: finite values on a companion model") {
  contract::for_each_component(Kind::Probe, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    contract::add_model(setup, entry);
    contract::add_loss(setup, entry);
    auto probe = contract::make<Probe>(entry, setup);
    // Probes of robustness read the pipeline's attacks: one cheap attack for those.
    auto fgsm = contract::make<Attack>("std:fgsm", {}, setup);
    const std::vector<NamedAttack> attacks{{"fgsm", fgsm.get()}};
    bool reported = false;
    for (const Index step : {Index(0), Index(5)}) {
      Measurements out;
      probe->measure({*setup.model, *setup.loss, setup.train, setup.test, setup.features, attacks, step}, out);
      check_measurements(out, entry.info->metrics, "at step " + std::to_string(step));
      reported = reported || !out.scalars().empty() || !out.tables().empty();
    }
    CHECK(reported);
  });
}

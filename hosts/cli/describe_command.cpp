// featurelab describe NAME: a component's documentation and parameter schema, from its manifest.
#include "session.hpp"

#include <featurelab/core/errors.hpp>

#include <fmt/format.h>

#include <iostream>

namespace featurelab::cli {

Action add_describe_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("describe", "Show a component's documentation and parameters");
  auto name = std::make_shared<std::string>();
  sub->add_option("name", *name, "Component name, or pack:name")->required();
  return [&global, name]() {
    Session session = open_session(global, false);
    const auto refs = session.catalog().require_any(*name);
    for (const auto& r : refs) {
      const auto& c = *r.component;
      std::cout << fmt::format("{} {}  (pack {} {}, {})\n\n", to_string(c.kind), c.name, r.pack->manifest.name,
                               r.pack->manifest.version, r.pack->manifest.library_file.string());
      if (!c.source.empty()) std::cout << "Source: " << c.source << "\n\n";
      if (!c.metrics.empty()) {
        std::string metrics;
        for (const auto& m : c.metrics) metrics += (metrics.empty() ? "" : ", ") + c.name + "." + m;
        std::cout << (c.kind == Kind::Probe ? "Metrics (named after the probe's instance name; * is any text): "
                                            : "Metrics it records: ")
                  << metrics << "\n\n";
      }
      std::cout << c.doc << "\n\n";
      if (c.schema.specs().empty()) {
        std::cout << "No parameters.\n";
      } else {
        std::cout << "Parameters:\n";
        for (const auto& spec : c.schema.specs()) {
          std::cout << fmt::format("  {:<18} {:<11} default {:<14} {}\n", spec.name, to_string(spec.type),
                                   spec.default_text(), spec.expectation());
          std::cout << fmt::format("  {:<18} {}\n", "", spec.doc);
          // A numeric default that may also be "auto": say what auto means too.
          if (spec.automatic && !(spec.default_value && is_auto(*spec.default_value))) {
            std::cout << fmt::format("  {:<18} \"auto\": {}\n", "", *spec.automatic);
          }
          if (spec.pipeline_relative) std::cout << fmt::format("  {:<18} relative to the pipeline's directory (\"\": that directory)\n", "");
        }
      }
      if (c.schema.other_keys_doc()) std::cout << "Other keys: " << *c.schema.other_keys_doc() << "\n";
      std::cout << "\n";
    }
    return int(kExitOk);
  };
}

}  // namespace featurelab::cli

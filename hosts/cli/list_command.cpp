// featurelab list [KIND]: every component found, from the manifests (no plugin code runs).
#include "session.hpp"

#include <featurelab/core/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

namespace featurelab::cli {

Action add_list_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("list", "List the components found on the plugin search path");
  auto kind_text = std::make_shared<std::string>();
  sub->add_option("kind", *kind_text,
                  "Only this kind: distribution, transform, augment, model, loss, optimizer, trainer, "
                  "probe, attack, regularizer, activation, layer, callback");
  return [&global, kind_text]() {
    Kind only = Kind::Model;
    const bool filter = !kind_text->empty();
    if (filter && !parse_kind(*kind_text, only)) {
      std::cerr << "error: unknown kind '" << *kind_text
                << "'; kinds: distribution, transform, augment, model, loss, optimizer, trainer, probe, attack, regularizer, activation, layer, callback\n";
      return int(kExitBadInput);
    }
    Session session = open_session(global, false);
    const Catalog& catalog = session.catalog();
    for (const auto& problem : catalog.problems()) std::cerr << "warning: " << problem << "\n";
    for (Kind kind : kAllKinds) {
      if (filter && kind != only) continue;
      std::vector<ComponentRef> refs;
      for (const auto& pack : catalog.packs()) {
        for (const auto& c : pack->manifest.components) {
          if (c.kind == kind) refs.push_back({&c, pack.get()});
        }
      }
      if (refs.empty()) continue;
      std::sort(refs.begin(), refs.end(), [](const ComponentRef& a, const ComponentRef& b) {
        return a.component->name < b.component->name;
      });
      std::cout << to_string(kind) << ":\n";
      for (const auto& r : refs) {
        std::cout << fmt::format("  {:<26} {:<10} {}\n", r.component->name, r.pack->manifest.name,
                                 summary_line(r.component->doc));
      }
    }
    if (catalog.packs().empty()) {
      std::cerr << "no plugin packs found; searched:";
      for (const auto& d : catalog.dirs()) std::cerr << " " << d.string();
      std::cerr << "\n";
      return int(kExitPluginRefused);
    }
    return int(kExitOk);
  };
}

}  // namespace featurelab::cli

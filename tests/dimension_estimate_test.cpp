// Every distribution of every pack in the build declares its dimension for the memory estimate at
// validation (distribution.hpp), and the estimate is the dimension the distribution really has.
#include <featurelab/core/catalog.hpp>

#include <featurelab/distribution.hpp>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <catch2/catch.hpp>

using namespace featurelab;

TEST_CASE("each distribution's declared dimension is the dimension it builds, at its defaults") {
  Catalog catalog;
  catalog.discover({FEATURELAB_PLUGIN_BUILD_DIR});
  auto log = std::make_shared<spdlog::logger>("dimension-test", std::make_shared<spdlog::sinks::null_sink_mt>());
  int checked = 0;
  for (const auto& pack : catalog.packs()) {
    for (const auto& component : pack->manifest.components) {
      if (component.kind != Kind::Distribution) continue;
      const ComponentRef ref{&component, pack.get()};
      INFO(ref.qualified());
      const Params defaults = Params::defaults(component.schema);
      const double declared = catalog.data_dimension(ref, defaults);
      CHECK(declared > 0);  // declared at all: without it a too-large pipeline is refused only when its job starts
      Context context;
      context.log = log.get();
      context.path = "data";
      auto distribution = catalog.make<Distribution>(ref, defaults, context);
      CHECK(declared == double(distribution->spec().dim));
      ++checked;
    }
  }
  CHECK(checked >= 2);  // at least the std pack's
}

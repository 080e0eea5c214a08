// A pack as the catalog knows it (its manifest, why it is refused, its library once loaded) and a reference to
// one of its components: what a validated pipeline holds (config/pipeline.hpp) and the catalog hands out.
#pragma once

#include <featurelab/core/manifest.hpp>
#include <featurelab/core/load_failure.hpp>

#include <memory>
#include <string>

namespace featurelab {

struct LoadedPack;  // a loaded library (the loader's pack_loader.hpp)

struct PackRecord {
  PackManifest manifest;
  // Why the pack is not used, with the fix ("<file>: refused: ..."); empty when it is usable.
  std::string refusal;
  LoadFailure refusal_kind = LoadFailure::None;
  // What this process learns as it goes (the description above stays as discovered): the SHA-256
  // the pack is pinned to (pin(), or its first load), and the loaded library.
  mutable std::string sha256;
  mutable std::shared_ptr<LoadedPack> loaded;
};

struct ComponentRef {
  const ComponentManifest* component = nullptr;
  const PackRecord* pack = nullptr;
  std::string qualified() const { return pack->manifest.name + ":" + component->name; }
};

}  // namespace featurelab

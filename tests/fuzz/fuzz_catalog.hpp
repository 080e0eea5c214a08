// The std pack's catalog for the targets that validate pipelines.
#pragma once

#include <featurelab/core/catalog.hpp>

namespace featurelab::fuzz {

// The std pack from the build tree (FEATURELAB_PLUGIN_BUILD_DIR), loaded once.
inline const Catalog& std_catalog() {
  static Catalog catalog = [] {
    Catalog c;
    c.discover({FEATURELAB_PLUGIN_BUILD_DIR});
    return c;
  }();
  return catalog;
}

}  // namespace featurelab::fuzz

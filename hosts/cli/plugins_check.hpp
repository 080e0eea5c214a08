// featurelab plugins check PACK (plugins_check.cpp).
#pragma once

#include <featurelab/core/catalog.hpp>

#include <string>

namespace featurelab::cli {

// Runs the contract program on `pack`, with every usable pack of the catalog loaded beside it (its
// companions: std's data, models and losses). Returns the exit code: 0 when every check passed, 1 otherwise.
int check_pack(const Catalog& catalog, const std::string& pack);

}  // namespace featurelab::cli

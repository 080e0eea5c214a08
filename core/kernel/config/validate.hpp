// Validation of a pipeline against the schemas of the components it names, before anything runs.
#pragma once

#include "kernel/config/pipeline.hpp"
#include "kernel/config/pipeline_source.hpp"
#include <featurelab/core/catalog.hpp>  // validation resolves every component against the catalog

namespace featurelab {

// Throws ConfigError listing every problem: unknown sections and keys (with did-you-mean),
// wrong types, values out of range, unknown components, each located by file:line:column.
Pipeline validate_pipeline(const PipelineSource& source, const Catalog& catalog);

}  // namespace featurelab

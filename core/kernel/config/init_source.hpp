// [model] init_from as the pipeline writes it (pipeline.hpp: InitSource), read into its table form: a saved step's
// directory, a job's, a run's, or the table itself. Only what the text says is checked here (and that the run or job
// is there): which job and step it comes to, for a job's seed, is the run's business (execution/init_params.hpp).
#pragma once

#include "kernel/config/pipeline.hpp"

#include <toml++/toml.h>

#include <functional>
#include <string>

namespace featurelab {

// `resolve` makes a written path absolute (against the pipeline's directory). Throws Error with what is wrong and
// the forms it takes; the caller locates it.
InitSource read_init_source(const toml::node& node, const std::function<std::string(const std::string&)>& resolve);

// The table form, as config.toml records it: { run = "/abs", point = "…", step = N } or { job = "/abs", step = N }.
toml::table init_source_table(const InitSource& source);

}  // namespace featurelab

// One build of each plugin per run. Jobs run in worker processes forked from the run's process,
// each loading the packs it needs when it starts; a library rebuilt meanwhile would make later jobs
// run other code than earlier ones. So the parent pins every pack the plan may load before anything
// runs (trust-checked and hashed: Catalog::pin), manifest.json records each pack's SHA-256, and a
// worker loads exactly those bytes or fails its job (Catalog::load). A run directory taken up again
// (re-run, --resume) or a job of it run alone (`featurelab job`) must find the builds it recorded.
#pragma once

#include "kernel/job/plan.hpp"

#include <filesystem>
#include <vector>

namespace featurelab {

// The packs whose components the plan names, in the order they first appear.
std::vector<const PackRecord*> packs_of(const RunPlan& plan);

// Pins packs_of(plan), and every pack providing an activation (a model asks for its activation by
// name while it is built). Throws PluginError naming a refused or unreadable library: a refused
// plugin stops the run before any job.
void pin_run_packs(const RunPlan& plan, const Catalog& catalog);

// Before taking up the run directory `out` again: every pack its manifest.json records with a
// SHA-256 and that the plan uses must be pinned to the same one, and the recorded product kernel is used. Throws PluginError naming the pack
// and both hashes. A directory without a run, or without recorded hashes, is not checked.
void check_resumed_builds(const std::filesystem::path& out, const RunPlan& plan);

// The product kernel the run directory's manifest.json records (featurelab/product_kernel.hpp) becomes this
// process's, and its workers': a run never mixes two kernels' roundings. Throws ConfigError when this build
// lacks it, or FEATURELAB_PRODUCT_KERNEL asks for the other. Nothing recorded: nothing changes. Both functions
// below call it.
void use_recorded_product_kernel(const std::filesystem::path& run_dir);

// For `featurelab job`: pins the catalog's packs to the builds the run directory's manifest.json
// records, so a job whose plugin was rebuilt since the run was prepared fails instead of running
// other code.
void pin_recorded_builds(const std::filesystem::path& run_dir, const Catalog& catalog);

}  // namespace featurelab

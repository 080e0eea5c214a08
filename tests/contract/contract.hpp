// The contract test's shared parts: the packs it loads, the components it checks, and how one
// component is checked in its own section (a failure or a throw names the component; the others
// still run).
#pragma once

#include <featurelab/testing.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace contract {

using Overrides = std::map<std::string, featurelab::Value>;

// One registered component of a pack under test.
struct Entry {
  std::string pack;
  const featurelab::ComponentInfo* info = nullptr;
  std::string id() const { return pack + ":" + info->name; }
};

// Every pack of the build's plugin directory, loaded once: the packs under test and the companions
// they are checked with (std's data and models, another pack's distribution).
featurelab::testing::Harness& harness();

// The libraries named by --library, loaded instead of every library of the build's plugin directory.
void use_libraries(std::vector<std::string> files);

// The packs this run checks: the one named by --pack, or every pack of the directory.
void select_pack(const std::string& pack);
std::vector<std::string> packs_under_test();

// The components of one kind in the packs under test, in registration order.
std::vector<Entry> components(featurelab::Kind kind);

// Runs check(entry) for every component of the kind, each in its own section; a skipped one
// (skip_list.cpp) is counted and printed instead.
void for_each_component(featurelab::Kind kind, const std::function<void(const Entry&)>& check);

// Why the component is not checked (skip_list.cpp), or nullptr.
const char* skip_reason(const Entry& entry);

// The run's summary for main(): what was checked and what was skipped, with the reasons.
std::string summary();

}  // namespace contract

// Did-you-mean suggestions.
#include "kernel/text/suggest.hpp"

#include <catch2/catch.hpp>

using featurelab::closest_name;
using featurelab::edit_distance;

TEST_CASE("edit distance counts insertions, deletions and substitutions") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "abc") == 0);
  CHECK(edit_distance("midpoint-mixp", "midpoint-mixup") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("closest name suggests plausible typos only") {
  const std::vector<std::string> names{"midpoint-mixup", "mixup", "two-layer", "linear"};
  CHECK(closest_name("midpoint-mixp", names) == std::optional<std::string>("midpoint-mixup"));
  CHECK(closest_name("two-layr", names) == std::optional<std::string>("two-layer"));
  CHECK_FALSE(closest_name("transformer", names).has_value());
}

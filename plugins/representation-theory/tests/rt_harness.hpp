// The built representation-theory and std plugins, loaded once for all of the pack's tests, and the
// look-up of a probe's scalar that the chapters' tests share.
#pragma once

#include <featurelab/probe.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <string>

namespace rt_test {

inline featurelab::testing::Harness& pack() { return featurelab::testing::pack(REPRESENTATION_THEORY_PLUGIN); }
inline featurelab::testing::Harness& std_pack() { return featurelab::testing::pack(FEATURELAB_STD_PLUGIN); }

// The scalar `name` of a probe's measurements; fails the test when the probe did not report it.
inline double metric(const featurelab::Measurements& measurements, const std::string& name) {
  for (const auto& [key, value] : measurements.scalars()) {
    if (key == name) return value;
  }
  FAIL("no metric " << name);
  return 0;
}

}  // namespace rt_test

// Distributions: samples have the shape the spec declares (dimension, labels in range, targets,
// metadata columns), two instances built with the same seed sample the same bits, and the
// dimension estimate used at validation (static dimension(params)) is the real dimension.
#include "setup.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace featurelab;

namespace {

void check_shape(const Dataset& data, const DataSpec& spec, Index n, const std::string& split) {
  INFO(split << " split of " << n << " samples");
  CHECK(data.size() == n);
  CHECK(data.dim() == spec.dim);
  CHECK(data.y.size() == n);
  CHECK(data.classes == spec.classes);
  contract::check_labels(data.y, spec.classes, split + " labels");
  if (spec.target_cols > 0) {
    CHECK(data.T.rows() == n);
    CHECK(data.T.cols() == spec.target_cols);
    contract::require_finite(data.T, split + " targets");
  } else {
    CHECK(data.T.size() == 0);
  }
  CHECK(data.shape.dims == spec.shape.dims);
  if (!spec.shape.dims.empty()) {
    Index product = 1;
    for (Index d : spec.shape.dims) product *= d;
    CHECK(product == spec.dim);
  }
  for (const auto& column : spec.meta) {
    INFO("metadata column " << column);
    const auto it = data.meta.find(column);
    CHECK(it != data.meta.end());
    if (it != data.meta.end()) CHECK(it->second.size() == n);
  }
  contract::require_finite(data.X, split + " samples");
}

template <class M>
bool same_bits(const M& a, const M& b) {
  // An empty matrix has no storage (data() is null), and memcmp must not be given a null pointer.
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 ||
          std::memcmp(a.data(), b.data(), sizeof(typename M::Scalar) * static_cast<std::size_t>(a.size())) == 0);
}

bool same_bits(const Dataset& a, const Dataset& b) {
  if (!same_bits(a.X, b.X) || !same_bits(a.y, b.y) || !same_bits(a.T, b.T) || a.meta.size() != b.meta.size()) {
    return false;
  }
  for (const auto& [name, column] : a.meta) {
    const auto it = b.meta.find(name);
    if (it == b.meta.end() || !same_bits(column, it->second)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("distributions: samples match the spec; the same seed gives the same bits") {
  contract::for_each_component(Kind::Distribution, [](const contract::Entry& entry) {
    const auto params = contract::params_of(entry);
    auto first = contract::harness().make<Distribution>(entry.id(), params, {}, 1);
    auto second = contract::harness().make<Distribution>(entry.id(), params, {}, 1);
    const DataSpec spec = first->spec();
    CHECK(spec.dim > 0);
    INFO("classes " << spec.classes << ", target columns " << spec.target_cols);
    CHECK((spec.classes >= 1 || spec.target_cols > 0));
    if (entry.info->dimension) {
      INFO("static dimension(params), the memory estimate at validation");
      CHECK(entry.info->dimension(featurelab::testing::resolve(entry.info->schema, params)) == double(spec.dim));
    }
    for (const Split split : {Split::Train, Split::Test}) {
      const std::string name = split == Split::Train ? "train" : "test";
      const Index available = first->available(split);
      const Index n = available < 0 ? contract::kSamples : std::min(contract::kSamples, available);
      Dataset a, b;
      Rng rng_a(5), rng_b(5);
      first->sample(n, split, rng_a, a);
      second->sample(n, split, rng_b, b);
      check_shape(a, spec, n, name);
      INFO(name << " split: two instances built with seed 1, sampled with the same stream");
      CHECK(same_bits(a, b));
    }
    for (const auto& [name, matrix] : first->features()) contract::require_finite(matrix, "feature " + name);
  });
}

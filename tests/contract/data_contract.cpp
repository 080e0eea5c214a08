// Transforms and augments keep the data's shape and labels: a transform returns as many samples
// as it was given, of the dimension, classes, targets and metadata its output_spec() declares; an
// augment's output passes the host's own check (kernel/job/augment_check.hpp), with labels in range
// and finite values, also when the batch size changes between calls (its buffer is reused).
#include "setup.hpp"

#include "kernel/job/augment_check.hpp"

#include <featurelab/transform.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

namespace {

void check_transformed(const Dataset& data, Index n, const DataSpec& spec, const std::string& split) {
  INFO(split << " split");
  CHECK(data.size() == n);
  CHECK(data.dim() == spec.dim);
  CHECK(data.y.size() == n);
  CHECK(data.classes == spec.classes);
  contract::check_labels(data.y, spec.classes, split + " labels");
  if (spec.target_cols > 0) CHECK((data.T.rows() == n && data.T.cols() == spec.target_cols));
  if (data.T.size() > 0) contract::require_finite(data.T, split + " targets");
  for (const auto& column : spec.meta) {
    INFO("metadata column " << column);
    CHECK(data.meta.count(column) == 1);
  }
  for (const auto& [name, column] : data.meta) {
    INFO("metadata column " << name);
    CHECK(column.size() == n);
  }
  contract::require_finite(data.X, split + " samples");
}

}  // namespace

TEST_CASE("transforms: samples, dimension, labels and metadata as output_spec declares") {
  contract::for_each_component(Kind::Transform, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    auto transform = contract::make<Transform>(entry, setup);
    const DataSpec out = transform->output_spec(setup.spec);
    Dataset train = setup.train, test = setup.test;
    Rng rng(11);
    transform->apply(train, test, rng);
    check_transformed(train, setup.train.size(), out, "train");
    check_transformed(test, setup.test.size(), out, "test");
  });
}

TEST_CASE("augments: outputs pass the host's check, labels in range, buffers reused across batch sizes") {
  contract::for_each_component(Kind::Augment, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    auto augment = contract::make<Augment>(entry, setup);
    ComponentManifest manifest;  // what the host's check names the augment by
    manifest.kind = Kind::Augment;
    manifest.name = entry.info->name;
    PackRecord pack;
    pack.manifest.name = entry.pack;
    ComponentConfig config;
    config.kind = Kind::Augment;
    config.path = "augment.0";
    config.ref = {&manifest, &pack};
    Dataset out;  // one buffer for every call, as the trainer keeps it
    Rng rng(13);
    for (const Index rows : {contract::kSamples, contract::kSamples / 2, contract::kSamples}) {
      INFO("a batch of " << rows << " samples");
      const Batch in = Batch::rows(setup.train, 0, rows);
      augment->apply(in, out, rng);
      check_augment_output(config, in, out, setup.spec);
      CHECK(out.classes == in.classes);
      contract::check_labels(out.y, out.classes, "augmented batch");
      contract::require_finite(out.X, "augmented samples");
      if (out.T.size() > 0) contract::require_finite(out.T, "augmented targets");
    }
  });
}

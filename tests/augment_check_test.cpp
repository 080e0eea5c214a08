// The host's check of an augment's output (kernel/job/augment_check.hpp): each wrong shape is named
// with the augment, instead of reaching the loss as labels or targets that do not exist.
#include "kernel/job/augment_check.hpp"

#include <catch2/catch.hpp>

using namespace featurelab;

namespace {

struct Fixture {
  ComponentManifest manifest{Kind::Augment, "forgetful-augment", "", Schema{}, "featurelab.augment/1", "", {}};
  PackRecord pack;
  ComponentConfig augment;
  DataSpec spec;
  Dataset in;
  Fixture() {
    pack.manifest.name = "fixture";
    augment.path = "augment.0";
    augment.ref = {&manifest, &pack};
    spec.dim = 3;
    spec.classes = 2;
    in.resize(5, 3);
    in.classes = 2;
  }
};

}  // namespace

TEST_CASE("an augment's output with consistent shapes passes") {
  Fixture f;
  Dataset out;
  out.resize(10, 3, 2);  // more rows than the batch (pairs) and soft labels: both allowed
  out.classes = 2;
  CHECK_NOTHROW(check_augment_output(f.augment, Batch::of(f.in), out, f.spec));
  out.resize(4, 3);  // labels only: T empty
  CHECK_NOTHROW(check_augment_output(f.augment, Batch::of(f.in), out, f.spec));
}

TEST_CASE("an augment's output with a forgotten resize is refused, naming the augment and the shapes") {
  Fixture f;
  const Batch in = Batch::of(f.in);
  Dataset out;
  CHECK_THROWS_WITH(check_augment_output(f.augment, in, out, f.spec),
                    "augment.0 (fixture:forgetful-augment): its output has no samples (out.X is 0x0); an augment "
                    "sizes every member of its output: out.resize(m, in.dim, K) (K = 0 for labels only), then "
                    "out.classes = in.classes (see featurelab/augment.hpp)");
  out.X = f.in.X;  // X copied, labels forgotten
  out.classes = 2;
  CHECK_THROWS_WITH(check_augment_output(f.augment, in, out, f.spec),
                    Catch::StartsWith("augment.0 (fixture:forgetful-augment): its output has 5 samples (rows of X) but 0 labels (y)"));
  out.resize(5, 2);
  CHECK_THROWS_WITH(check_augment_output(f.augment, in, out, f.spec),
                    Catch::Contains("its output's samples have 2 columns, the data's dimension is 3"));
  out.resize(5, 3, 1);
  out.T.resize(4, 1);
  CHECK_THROWS_WITH(check_augment_output(f.augment, in, out, f.spec),
                    Catch::Contains("5 samples (rows of X) but 4 rows of targets (T)"));
  out.resize(5, 3);
  out.classes = 0;
  CHECK_THROWS_WITH(check_augment_output(f.augment, in, out, f.spec),
                    Catch::Contains("its output's classes is 0 (the batch's is 2)"));
}

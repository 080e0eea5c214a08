// scratch_rows.hpp: a work buffer that keeps its largest storage, so a model evaluated on 50,000 rows between
// training steps of 1000 does not allocate (and have the kernel zero) its buffers again at every evaluation.
#include <featurelab/scratch_rows.hpp>

#include <catch2/catch.hpp>

#include <cstdint>

using namespace featurelab;

TEST_CASE("scratch rows keep the largest storage and hand out its first rows, aligned as a Mat") {
  ScratchRows buffer;
  MatMap big = buffer.take(500, 6);
  big.setConstant(2);
  const Scalar* storage = big.data();
  CHECK(reinterpret_cast<std::uintptr_t>(storage) % EIGEN_DEFAULT_ALIGN_BYTES == 0);  // a Mat's alignment: the same vector loops

  MatMap small = buffer.take(10, 6);  // a smaller batch: the same storage, no allocation
  CHECK(small.data() == storage);
  CHECK(small.rows() == 10);
  CHECK(small.cols() == 6);
  small.setConstant(3);
  CHECK(buffer.view().rows() == 10);  // view() is the last take()
  CHECK(buffer.view()(9, 5) == 3);

  CHECK(buffer.take(500, 6).data() == storage);  // back to the evaluation's size: still no allocation
  CHECK(buffer.take(250, 12).data() == storage);  // another shape of the same size fits too
  CHECK(buffer.view().cols() == 12);

  MatMap larger = buffer.take(501, 6);  // only a larger request grows it
  CHECK(larger.rows() == 501);
  larger.setZero();
  CHECK(buffer.view().sum() == 0);
}

// The default mixed-pair head: form the block of mixes, run head() / head_backward() on it.
#include <featurelab/preactivation.hpp>

namespace featurelab {

namespace {
// Blocks shrink at the end of a range; growing only keeps the buffer from being reallocated.
void grow(Mat& buffer, Index rows, Index cols) {
  if (buffer.rows() < rows || buffer.cols() != cols) buffer.resize(rows, cols);
}
}  // namespace

void LinearPreactivation::mixed_head(const Eigen::Ref<const RowVec>& anchor, Scalar mu, ConstMatRef partners, MatRef out,
                                     MixedScratch& scratch) {
  grow(scratch.block, partners.rows(), partners.cols());
  auto mixes = scratch.block.topRows(partners.rows());
  mixes.noalias() = (mu * partners).rowwise() + anchor;
  head(mixes, out);
}

void LinearPreactivation::mixed_head_backward(ConstMatRef dout, Scalar mu, MatRef partner_dZ, Eigen::Ref<RowVec> anchor_dZ,
                                              MixedScratch& scratch) {
  grow(scratch.block, partner_dZ.rows(), partner_dZ.cols());
  auto dZ = scratch.block.topRows(partner_dZ.rows());
  head_backward(dout, dZ);
  anchor_dZ.noalias() += dZ.colwise().sum();
  partner_dZ += mu * dZ;
}

}  // namespace featurelab

#include "prompt_tokens.hpp"

#include <featurelab/error.hpp>

namespace featurelab::fourier_icl_pack {

PromptShape prompt_shape(const DataSpec& data, const std::string& who) {
  const auto& dims = data.shape.dims;
  if (dims.size() != 2 || dims[1] < 2 || dims[0] < 2 || dims[0] * dims[1] != data.dim) {
    throw Error(who + " reads prompts of tokens (x, y): data of shape (tokens)×(d+1), as icl-linear-regression and "
                "icl-sparse-parity write; this data has no such shape");
  }
  return {dims[0] - 1, dims[1] - 1};
}

void summarize_prompts(ConstMatRef X, const PromptShape& shape, Mat& H, Mat& Xq) {
  const Index n = X.rows(), d = shape.dim, stride = d + 1;
  H.setZero(n, d);
  Xq.resize(n, d);
  for (Index i = 0; i < n; ++i) {
    Index filled = 0;
    for (Index t = 0; t < shape.slots; ++t) {
      const auto token = X.row(i).segment(t * stride, d);
      if (token.squaredNorm() == 0) continue;  // an unused slot (a real token is never exactly 0)
      H.row(i) += X(i, t * stride + d) * token;
      ++filled;
    }
    if (filled > 0) H.row(i) /= static_cast<Scalar>(filled);
    Xq.row(i) = X.row(i).segment(shape.slots * stride, d);
  }
}

}  // namespace featurelab::fourier_icl_pack

// The 2-D DFT as F A Fᵀ with F = C − iS (p×p cosine and sine tables).
#include "attention_fourier_2d.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace featurelab::fourier_icl_pack {

Schema AttentionFourier2d::schema() {
  Schema s;
  s.integer("layer", 0, "the block whose heads are analysed (0 = the first)").min(0);
  return s;
}

AttentionFourier2d::AttentionFourier2d(const Params& params, Context& context)
    : layer_(params.integer("layer")), total_steps_(context.total_steps) {}

void AttentionFourier2d::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const std::string prefix = "l" + std::to_string(layer_) + ".";
  const ParamBlock* wq = in.model.find_block(prefix + "wq");
  const ParamBlock* embed = in.model.find_block("embed");
  if (!wq || !embed) throw Error(who + " reads blocks embed and " + prefix + "wq/wk of a transformer with that many layers");
  const Index p = embed->rows - 2;
  if (p < 3) throw Error(who + ": the vocabulary holds no numbers (modular-sum with encoding = \"tokens\")");
  const MatD E = in.model.block("embed").cast<double>().middleRows(2, p);
  const MatD Wq = in.model.block(prefix + "wq").cast<double>();
  const MatD Wk = in.model.block(prefix + "wk").cast<double>();
  // The head split of wq's columns: the transformer records [heads, head width] in a frozen block.
  if (!in.model.find_block("attention_shape")) {
    throw Error(who + ": the model does not declare its attention shape (block attention_shape: the transformer does)");
  }
  const Index heads = static_cast<Index>(in.model.block("attention_shape")(0, 0));
  const Index a = Wq.cols() / heads;
  MatD C(p, p), S(p, p);
  for (Index j = 0; j < p; ++j) {
    for (Index x = 0; x < p; ++x) {
      const double angle = 2 * M_PI * static_cast<double>(j * x % p) / static_cast<double>(p);
      C(j, x) = std::cos(angle);
      S(j, x) = std::sin(angle);
    }
  }
  Table table;
  table.values.resize(heads, 4);
  table.col_names = {"norm", "top4", "j1", "j2"};
  std::vector<double> norms(static_cast<std::size_t>(heads));
  for (Index h = 0; h < heads; ++h) {
    MatD A = E * Wq.middleCols(h * a, a) * Wk.middleCols(h * a, a).transpose() * E.transpose();
    A.array() -= A.mean();
    const MatD re = C * A * C.transpose() - S * A * S.transpose();
    const MatD im = C * A * S.transpose() + S * A * C.transpose();
    const MatD power = re.array().square() + im.array().square();
    // The spectra themselves (Fig. 4.3's right column) at the start and the end only: p² numbers per head.
    if (in.step == 0 || in.step == total_steps_) {
      Table spectrum;
      spectrum.values = power / std::max(power.maxCoeff(), 1e-300);
      out.table("power.head" + std::to_string(h), std::move(spectrum));
    }
    std::vector<double> bins(power.data(), power.data() + power.size());
    std::partial_sort(bins.begin(), bins.begin() + 4, bins.end(), std::greater<double>());
    const double total = power.sum();
    Index j1 = 0, j2 = 0;
    power.maxCoeff(&j1, &j2);
    norms[static_cast<std::size_t>(h)] = A.norm();
    table.values(h, 0) = A.norm();
    table.values(h, 1) = total > 0 ? (bins[0] + bins[1] + bins[2] + bins[3]) / total : 0;
    table.values(h, 2) = static_cast<double>(j1);
    table.values(h, 3) = static_cast<double>(j2);
    table.row_names.push_back("head " + std::to_string(h));
  }
  const double cut = 0.1 * *std::max_element(norms.begin(), norms.end());
  double sum = 0, low = 1, sparse = 0, counted = 0;
  for (Index h = 0; h < heads; ++h) {
    if (norms[static_cast<std::size_t>(h)] < cut) continue;
    const double top4 = table.values(h, 1);
    sum += top4;
    low = std::min(low, top4);
    sparse += top4 >= 0.5 ? 1 : 0;
    counted += 1;
  }
  out.scalar("top4_mean", sum / counted);
  out.scalar("top4_min", low);
  out.scalar("sparse_heads", sparse / counted);
  out.table("heads", std::move(table));
}

}  // namespace featurelab::fourier_icl_pack

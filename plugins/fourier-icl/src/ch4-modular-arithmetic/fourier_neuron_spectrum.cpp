// The DFTs as two products with precomputed cos/sin tables (p×(p+1)/2): the real and imaginary parts of the
// one-sided spectra of all neurons' vectors at once.
#include "fourier_neuron_spectrum.hpp"
#include "modular_weights.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace featurelab::fourier_icl_pack {

Schema FourierNeuronSpectrum::schema() {
  Schema s;
  s.real("active", 0.1, "a neuron is active when ‖θ_i‖ >= active·max_i ‖θ_i‖ (weight decay leaves the others near 0)").range(0, 1);
  s.real("single", 0.9, "covered_single counts a frequency used by an active neuron whose max-normalised power is at "
         "least this (a single-frequency neuron)").range(0, 1);
  s.integer("neurons", 16, "rows of the spectra table (the first active neurons)").min(0);
  return s;
}

FourierNeuronSpectrum::FourierNeuronSpectrum(const Params& params, Context&)
    : active_(params.real("active")), single_(params.real("single")), neurons_(params.integer("neurons")) {}

void FourierNeuronSpectrum::measure(const ProbeInput& in, Measurements& out) {
  MatD U, W;
  int k = 0;
  modular_weights(in.model, "fourier-neuron-spectrum", U, W, k);
  const Index m = U.rows(), p = W.cols(), half = (p - 1) / 2;
  MatD C(p, half + 1), S(p, half + 1);  // û(ζ) = Σ_x u(x) (cos − i sin)(2πζx/p)
  for (Index x = 0; x < p; ++x) {
    for (Index z = 0; z <= half; ++z) {
      const double angle = 2 * M_PI * static_cast<double>(z * x % p) / static_cast<double>(p);
      C(x, z) = std::cos(angle);
      S(x, z) = -std::sin(angle);
    }
  }
  MatD power = MatD::Zero(m, half + 1);
  std::vector<MatD> re, im;  // per input j, then w: m×(half+1)
  for (int j = 0; j <= k; ++j) {
    const MatD block = j < k ? MatD(U.middleCols(static_cast<Index>(j) * p, p)) : W;
    re.push_back(block * C);
    im.push_back(block * S);
    power.array() += re.back().array().square() + im.back().array().square();
  }
  const VecD norms = (U.rowwise().squaredNorm() + W.rowwise().squaredNorm()).cwiseSqrt();
  const double cut = active_ * norms.maxCoeff();
  VecD mnp(m);
  std::vector<Index> dominant(static_cast<std::size_t>(m));
  for (Index i = 0; i < m; ++i) {
    Index z = 0;
    const double top = power.row(i).maxCoeff(&z);
    const double sum = power.row(i).sum();
    mnp(i) = sum > 0 ? top / sum : 0;
    dominant[static_cast<std::size_t>(i)] = z;
  }
  std::vector<double> active_mnp, residual;
  VecD histogram = VecD::Zero(half + 1);
  VecD single_histogram = VecD::Zero(half + 1);  // the same over single-frequency neurons only
  MatD spectra(0, half + 1);
  std::vector<std::string> rows;
  for (Index i = 0; i < m; ++i) {
    if (norms(i) < cut || norms(i) == 0) continue;
    active_mnp.push_back(mnp(i));
    const Index z = dominant[static_cast<std::size_t>(i)];
    histogram(z) += 1;
    if (mnp(i) >= single_) single_histogram(z) += 1;
    if (z > 0) {
      double phase = -std::atan2(im[static_cast<std::size_t>(k)](i, z), re[static_cast<std::size_t>(k)](i, z));
      for (int j = 0; j < k; ++j) phase += std::atan2(im[static_cast<std::size_t>(j)](i, z), re[static_cast<std::size_t>(j)](i, z));
      residual.push_back(std::abs(std::remainder(phase, 2 * M_PI)));
    }
    if (spectra.rows() < neurons_) {
      spectra.conservativeResize(spectra.rows() + 1, Eigen::NoChange);
      spectra.row(spectra.rows() - 1) = power.row(i) / std::max(power.row(i).sum(), 1e-300);
      rows.push_back("neuron " + std::to_string(i));
    }
  }
  const auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? std::nan("") : s / static_cast<double>(v.size());
  };
  out.scalar("active", static_cast<double>(active_mnp.size()));
  out.scalar("mnp_mean", mean(active_mnp));
  out.scalar("mnp_min", active_mnp.empty() ? std::nan("") : *std::min_element(active_mnp.begin(), active_mnp.end()));
  out.scalar("mnp_all", mnp.mean());
  const VecD freq = histogram.tail(half);  // ζ = 1 … (p−1)/2
  out.scalar("covered", static_cast<double>((freq.array() > 0).count()));
  out.scalar("min_per_frequency", freq.minCoeff());
  // At small p (2 or 3 frequencies) random neurons' dominant frequencies cover every one too; counted over
  // single-frequency neurons, coverage is Lemma C.20's claim and an untrained network fails it.
  const auto covered_single = static_cast<double>((single_histogram.tail(half).array() > 0).count());
  out.scalar("covered_single", covered_single);
  out.scalar("missing_single", static_cast<double>(half) - covered_single);  // 0: every frequency, whatever p
  double entropy = 0;
  const double total = freq.sum();
  for (Index z = 0; z < half; ++z) {
    if (freq(z) > 0) entropy -= freq(z) / total * std::log(freq(z) / total);
  }
  out.scalar("entropy", half > 1 && total > 0 ? entropy / std::log(static_cast<double>(half)) : std::nan(""));
  out.scalar("phase_mean", mean(residual));
  out.scalar("phase_max", residual.empty() ? std::nan("") : *std::max_element(residual.begin(), residual.end()));

  Table frequencies;
  frequencies.values = histogram;
  for (Index z = 0; z <= half; ++z) frequencies.row_names.push_back("zeta=" + std::to_string(z));
  frequencies.col_names = {"neurons"};
  out.table("frequencies", std::move(frequencies));
  Table table;
  table.values = spectra;
  table.row_names = rows;
  for (Index z = 0; z <= half; ++z) table.col_names.push_back("zeta=" + std::to_string(z));
  out.table("spectra", std::move(table));
}

}  // namespace featurelab::fourier_icl_pack

// The grid and the circle in one batched forward pass each; the points once.
#include "decision_grid_probe.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace featurelab::feature_amplification_pack {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Directions on the circle: 0.1° apart, so a sign change is placed to within 0.05°.
constexpr Index kCircle = 3600;

}  // namespace

Schema DecisionGridProbe::schema() {
  Schema s;
  s.real("low", -1.6, "grid from low ...");
  s.real("high", 1.6, "... to high, along μ1 and μ2");
  s.integer("resolution", 81, "points per axis").range(2, 1000);
  s.boolean("points", true, "record the training points (clean and noisy) to draw over the regions");
  return s;
}

DecisionGridProbe::DecisionGridProbe(const Params& params, Context&)
    : low_(params.real("low")),
      high_(params.real("high")),
      resolution_(params.integer("resolution")),
      points_(params.boolean("points")) {
  if (!(high_ > low_)) throw Error("decision-grid: high must exceed low");
}

void DecisionGridProbe::measure(const ProbeInput& in, Measurements& out) {
  // The plane of Figure 1: x = u·μ1 + v·μ2 (μ1 = e1, μ2 = e2 for std xor-clusters).
  const Mat& means = require_feature(in.features, name(), "means", "use data.use = \"xor-clusters\", which exposes it", 2,
                                     in.train.dim());  // 2×d
  const Index r = resolution_;
  auto coord = [&](Index i) { return low_ + (high_ - low_) * static_cast<double>(i) / static_cast<double>(r - 1); };
  Mat uv(r * r, 2);
  for (Index row = 0; row < r; ++row) {
    for (Index col = 0; col < r; ++col) {
      uv(row * r + col, 0) = static_cast<Scalar>(coord(col));
      uv(row * r + col, 1) = static_cast<Scalar>(coord(r - 1 - row));  // top row = largest v
    }
  }
  const Vec f = outputs_of(in.model, uv * means, name());
  Table table;
  table.values.resize(r, r);
  double agree = 0, compared = 0;
  for (Index row = 0; row < r; ++row) {
    for (Index col = 0; col < r; ++col) {
      const Index i = row * r + col;
      table.values(row, col) = f(i) > 0 ? 1.0 : -1.0;
      // The diagonals themselves (and the origin) belong to neither region of the reference.
      const double reference = std::abs(double(uv(i, 0))) - std::abs(double(uv(i, 1)));
      if (std::abs(reference) < 1e-6) continue;
      agree += (f(i) > 0) == (reference > 0) ? 1 : 0;
      compared += 1;
    }
  }
  for (Index i = 0; i < r; ++i) {
    table.col_names.push_back(fmt::format("{:.2f}", coord(i)));
    table.row_names.push_back(fmt::format("{:.2f}", coord(r - 1 - i)));
  }
  out.table("sign", std::move(table));
  out.scalar("oracle_agreement", compared > 0 ? agree / compared : 0.0);

  // The circle |x| = 1 through the four centres: f is positively homogeneous when it has no bias, so
  // there its sign changes are the boundary's directions; the reference's are the diagonals 45° + k·90°.
  Mat circle(kCircle, 2);
  for (Index k = 0; k < kCircle; ++k) {
    const double angle = 2 * kPi * static_cast<double>(k) / static_cast<double>(kCircle);
    circle(k, 0) = static_cast<Scalar>(std::cos(angle));
    circle(k, 1) = static_cast<Scalar>(std::sin(angle));
  }
  const Vec g = outputs_of(in.model, circle * means, name());
  int crossings = 0;
  double worst = 0;
  for (Index k = 0; k < kCircle; ++k) {
    const Index next = (k + 1) % kCircle;
    if ((g(k) > 0) == (g(next) > 0)) continue;
    ++crossings;
    const double degrees = 360.0 * (static_cast<double>(k) + 0.5) / static_cast<double>(kCircle);
    const double off = std::fmod(degrees - 45.0 + 360.0, 90.0);  // from the diagonal below, in [0, 90)
    worst = std::max(worst, std::min(off, 90.0 - off));
  }
  out.scalar("boundary_crossings", crossings);
  // Anything but four sign changes is not an X: the largest possible distance, 45°.
  out.scalar("boundary_angle_max_deg", crossings == 4 ? worst : 45.0);

  if (points_ && !points_recorded_) record_points(in, means, out);
}

// The training points in the plane, split by is_noisy when the data has it; the observed label as ±1
// (a noisy point sits in the other label's region once it is fit).
void DecisionGridProbe::record_points(const ProbeInput& in, const Mat& means, Measurements& out) {
  points_recorded_ = true;
  const Mat uv = in.train.X * means.transpose();  // n×2
  const auto noisy = in.train.meta.find("is_noisy");
  for (const bool want_noisy : {false, true}) {
    Table t;
    t.col_names = {"x", "y", "label_sign"};
    std::vector<Index> rows;
    for (Index i = 0; i < in.train.size(); ++i) {
      const bool is_noisy = noisy != in.train.meta.end() && noisy->second(i) > 0.5;
      if (is_noisy == want_noisy) rows.push_back(i);
    }
    if (rows.empty()) continue;
    t.values.resize(static_cast<Index>(rows.size()), 3);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Index i = rows[k];
      t.values(static_cast<Index>(k), 0) = uv(i, 0);
      t.values(static_cast<Index>(k), 1) = uv(i, 1);
      t.values(static_cast<Index>(k), 2) = sign_of_label(in.train.y(i));
    }
    out.table(want_noisy ? "noisy_points" : "clean_points", std::move(t));
  }
}

}  // namespace featurelab::feature_amplification_pack

// Finite-difference gradient checks (see gradient_check.hpp for why directions, not only
// coordinates: in float, a directional derivative over a unit direction keeps rounding small).
#include <featurelab/gradient_check.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace featurelab {

namespace {

double default_step() { return std::is_same_v<Scalar, float> ? 1e-2 : 1e-6; }
double default_tolerance() { return std::is_same_v<Scalar, float> ? 3e-2 : 1e-5; }

double relative_error(double analytic, double numeric, double scale) {
  return std::abs(analytic - numeric) / std::max({std::abs(analytic), std::abs(numeric), scale});
}

}  // namespace

GradientCheckResult check_gradient(Model& model, Loss& loss, const Batch& batch,
                                   GradientCheckOptions options) {
  const double h = options.step > 0 ? options.step : default_step();
  const double tol = options.tolerance > 0 ? options.tolerance : default_tolerance();
  const Index p = model.trainable_size();
  GradientCheckResult result;
  if (p == 0) return result;

  Vec& theta = model.parameters();
  const Vec saved = theta;
  Vec grad(p);
  const double value = static_cast<double>(loss.evaluate_with_gradient(model, batch, grad));
  // Below this, a finite difference is rounding noise: ε·|L|/h for the scalar type's ε.
  const double rounding = 64.0 * std::numeric_limits<Scalar>::epsilon() * std::max(1.0, std::abs(value)) / h;
  const double scale = std::max({1e-3, static_cast<double>(grad.norm()) * 1e-3, rounding});

  auto loss_at = [&](const Vec& direction, double t) {
    theta.head(p) = saved.head(p) + static_cast<Scalar>(t) * direction;
    return static_cast<double>(loss.evaluate(model, batch));
  };
  auto compare = [&](const std::string& what, double analytic, double numeric) {
    const double err = relative_error(analytic, numeric, scale);
    result.max_relative_error = std::max(result.max_relative_error, err);
    if (err > tol || !std::isfinite(analytic) || !std::isfinite(numeric)) {
      result.ok = false;
      std::ostringstream line;
      line << what << ": analytic " << analytic << ", finite difference " << numeric
           << ", relative error " << err << " > " << tol << "\n";
      result.report += line.str();
    }
  };

  Rng rng(options.seed);
  Vec direction(p);
  for (int d = 0; d < options.directions; ++d) {
    Mat noise(p, 1);
    rng.fill_normal(noise);
    direction = noise.col(0);
    direction /= direction.norm();
    const double numeric = (loss_at(direction, h) - loss_at(direction, -h)) / (2 * h);
    compare("direction " + std::to_string(d), static_cast<double>(grad.dot(direction)), numeric);
  }

  // Each trainable block along a random direction of its own: a wrong block is named even where its
  // share of the whole gradient is too small for the directions above to show it. (A stream of their own: the
  // coordinates below are those a check without them picks.)
  Rng block_rng = rng.fork("blocks");
  for (const auto& b : model.blocks()) {
    if (!b.trainable || b.size() == 0) continue;
    Mat noise(b.size(), 1);
    block_rng.fill_normal(noise);
    direction.setZero();
    direction.segment(b.offset, b.size()) = noise.col(0) / noise.norm();
    const double numeric = (loss_at(direction, h) - loss_at(direction, -h)) / (2 * h);
    // Twice the tolerance: a direction within one block moves the loss far less than one over all of θ, so a float
    // difference carries more rounding (3.1 % on a transformer's query block at 3 %); a wrong backward pass is off
    // by tens of percent (a missing factor 2: 50 %).
    const double err = relative_error(static_cast<double>(grad.dot(direction)), numeric, scale);
    const double block_tol = 2 * tol;
    result.max_relative_error = std::max(result.max_relative_error, err);
    if (err > block_tol || !std::isfinite(numeric)) {
      result.ok = false;
      std::ostringstream line;
      line << "block " << b.name << " (a direction within it): analytic " << grad.dot(direction) << ", finite difference "
           << numeric << ", relative error " << err << " > " << block_tol << "\n";
      result.report += line.str();
    }
  }

  // Coordinates: the largest gradient entries (where errors show) and some random ones.
  std::vector<Index> order(static_cast<std::size_t>(p));
  std::iota(order.begin(), order.end(), Index(0));
  const auto top = std::min<std::size_t>(order.size(), static_cast<std::size_t>(options.coordinates / 2));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                    [&grad](Index a, Index b) { return std::abs(grad(a)) > std::abs(grad(b)); });
  std::vector<Index> picks(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top));
  for (int c = 0; c < options.coordinates / 2 && p > 0; ++c) picks.push_back(rng.integer(0, p - 1));
  for (Index i : picks) {
    direction.setZero();
    direction(i) = 1;
    const double numeric = (loss_at(direction, h) - loss_at(direction, -h)) / (2 * h);
    std::string block;
    for (const auto& b : model.blocks()) {
      if (i >= b.offset && i < b.offset + b.size()) {
        block = b.name + "(" + std::to_string((i - b.offset) / b.cols) + "," +
                std::to_string((i - b.offset) % b.cols) + ")";
      }
    }
    compare("parameter " + block, static_cast<double>(grad(i)), numeric);
  }
  theta = saved;
  return result;
}

GradientCheckResult check_input_gradient(Model& model, const Batch& batch, GradientCheckOptions options) {
  const double h = options.step > 0 ? options.step : default_step();
  const double tol = options.tolerance > 0 ? options.tolerance : default_tolerance();
  GradientCheckResult result;
  Rng rng(options.seed);
  const Index n = batch.n;
  const Index k = model.outputs();
  Mat weights(n, k);
  rng.fill_normal(weights);
  Mat out(n, k);
  Mat X = batch.X();
  Mat dX(n, batch.dim);
  model.forward(X, out);
  const double value = static_cast<double>(out.cwiseProduct(weights).sum());
  model.input_gradient(X, weights, dX);
  // The same floor as check_gradient's: below ε·|objective|/h a finite difference is rounding
  // noise (a float model with large outputs and a small input gradient is otherwise refused).
  const double rounding = 64.0 * std::numeric_limits<Scalar>::epsilon() * std::max(1.0, std::abs(value)) / h;
  const double scale = std::max({1e-3, static_cast<double>(dX.norm()) * 1e-3, rounding});
  auto objective = [&](const Mat& input) {
    model.forward(input, out);
    return static_cast<double>(out.cwiseProduct(weights).sum());
  };
  for (int d = 0; d < options.directions; ++d) {
    Mat direction(n, batch.dim);
    rng.fill_normal(direction);
    direction /= direction.norm();
    const Mat plus = X + static_cast<Scalar>(h) * direction;
    const Mat minus = X - static_cast<Scalar>(h) * direction;
    const double numeric = (objective(plus) - objective(minus)) / (2 * h);
    const double analytic = static_cast<double>(dX.cwiseProduct(direction).sum());
    const double err = relative_error(analytic, numeric, scale);
    result.max_relative_error = std::max(result.max_relative_error, err);
    if (err > tol || !std::isfinite(analytic) || !std::isfinite(numeric)) {  // NaN compares false
      result.ok = false;
      std::ostringstream line;
      line << "input direction " << d << ": analytic " << analytic << ", finite difference "
           << numeric << ", relative error " << err << " > " << tol << "\n";
      result.report += line.str();
    }
  }
  return result;
}

}  // namespace featurelab

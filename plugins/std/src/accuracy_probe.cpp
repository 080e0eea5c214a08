// Accuracy, overall and per value of a metadata column.
#include "accuracy_probe.hpp"

#include <featurelab/capabilities.hpp>
#include <featurelab/error.hpp>

#include <fmt/format.h>

#include <map>

namespace featurelab::std_pack {

Schema AccuracyProbe::schema() {
  Schema s;
  s.strings("splits", {"train", "test"}, "which sets to measure").choices = {"train", "test"};
  s.string("against", "y", "labels to compare with: y (the observed labels) or a metadata column (e.g. y_clean)");
  s.boolean("balanced", false, "also report balanced accuracy <split>.balanced, the mean over classes of the "
                              "per-class accuracy: a constant prediction scores 1/classes whatever the class sizes");
  s.string("group_by", "", "also report accuracy per value of this metadata column (e.g. is_noisy)");
  Readout::declare(s);
  return s;
}

AccuracyProbe::AccuracyProbe(const Params& params, Context& context)
    : splits_(params.strings("splits")),
      against_(params.str("against")),
      group_by_(params.str("group_by")),
      balanced_(params.boolean("balanced")),
      readout_(Readout::from(params, context)) {}

namespace {
const VecD& column(const Dataset& data, const std::string& name) {
  auto it = data.meta.find(name);
  if (it == data.meta.end()) {
    std::string present;
    for (const auto& [k, _] : data.meta) present += (present.empty() ? "" : ", ") + k;
    throw Error("no metadata column '" + name + "' in this data (columns: " + (present.empty() ? "none" : present) + ")");
  }
  return it->second;
}
// Mean over the classes present of the share right within the class.
double balanced_accuracy(const Eigen::Array<bool, Eigen::Dynamic, 1>& right, const IVec& truth) {
  std::map<std::int32_t, std::pair<Index, Index>> tally;  // class -> (right, total)
  for (Index i = 0; i < truth.size(); ++i) {
    auto& t = tally[truth(i)];
    t.first += right(i) ? 1 : 0;
    t.second += 1;
  }
  double sum = 0;
  for (const auto& [label, t] : tally) sum += double(t.first) / double(t.second);
  return sum / double(tally.size());
}
}  // namespace

void AccuracyProbe::measure(const ProbeInput& in, Measurements& out) {
  for (const auto& split : splits_) {
    const Dataset& data = split == "train" ? in.train : in.test;
    if (data.size() == 0) continue;
    out_.resize(data.size(), in.model.outputs());
    forward_batch(in.model, Batch::of(data), out_);  // through the data's input codes where it has them
    IVec truth = data.y;
    if (against_ != "y") truth = column(data, against_).cast<std::int32_t>();
    const Eigen::Array<bool, Eigen::Dynamic, 1> right = readout_.correct(out_, ConstIVecMap(truth.data(), truth.size()));
    out.scalar(split, static_cast<double>(right.count()) / static_cast<double>(data.size()));
    if (balanced_) out.scalar(split + ".balanced", balanced_accuracy(right, truth));
    if (group_by_.empty()) continue;
    const VecD& groups = column(data, group_by_);
    std::map<double, std::pair<Index, Index>> tally;  // value -> (right, total)
    for (Index i = 0; i < data.size(); ++i) {
      auto& t = tally[groups(i)];
      t.first += right(i) ? 1 : 0;
      t.second += 1;
    }
    for (const auto& [value, t] : tally) {
      out.scalar(fmt::format("{}.{}={}", split, group_by_, value), double(t.first) / double(t.second));
    }
  }
}

}  // namespace featurelab::std_pack

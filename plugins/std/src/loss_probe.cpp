// The pipeline's loss on each split.
#include "loss_probe.hpp"

namespace featurelab::std_pack {

Schema LossProbe::schema() { return Schema{}; }

LossProbe::LossProbe(const Params&, Context&) {}

void LossProbe::measure(const ProbeInput& in, Measurements& out) {
  for (const auto& [name, data] : {std::pair<const char*, const Dataset*>{"train", &in.train}, {"test", &in.test}}) {
    if (data->size() == 0) continue;
    out.scalar(name, static_cast<double>(in.loss.evaluate(in.model, Batch::of(*data))));
  }
}

}  // namespace featurelab::std_pack

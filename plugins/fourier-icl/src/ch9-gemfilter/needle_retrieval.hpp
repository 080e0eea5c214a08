// Distribution `needle-retrieval`: a synthetic needle-in-a-haystack task, our CPU stand-in for the
// GemFilter chapter's LLM benchmarks (Shi 2024 ch. 9, §9.4.1): a prompt of `length` tokens
//     h_0 h_1 … [key_j value_j] … h_{length−2} key_q
// whose haystack tokens h are uniform over the `values` value tokens, with `pairs` key–value needles (distinct keys
// drawn from `keys` key tokens, values uniform, at random non-overlapping places) and a final query key equal to one
// needle's key; the label is that needle's value. Only the queried needle answers: the other pairs are there so the
// query has to be read. depth ∈ [0, 1] places the queried needle at that fraction of the haystack (the NIAH depth
// axis); depth < 0 places it uniformly. question > 1 ends the prompt in the query key and question − 1 answer markers
// (… key_q ? ?), as an LLM prompt ends in a question and a template rather than one token; the haystack shrinks to
// length − question. Token ids: values 0 … values−1, keys values … values+keys−1, the marker values+keys (feature
// vocab). Meta: needle_key and needle_value (the queried needle's two positions) and needle_depth (its start as a
// fraction of the haystack's last start), for gemfilter-selection and kv-eviction. Endless: fresh prompts on every
// draw.
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::fourier_icl_pack {

class NeedleRetrieval : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Needle-in-a-haystack retrieval: random value tokens, key–value needles, a final query key; the label is the "
      "queried needle's value (the GemFilter chapter's synthetic stand-in).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  NeedleRetrieval(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  featurelab::Index length_;
  int values_, keys_, pairs_;
  double depth_;
  featurelab::Index question_;
};

}  // namespace featurelab::fourier_icl_pack

// Chapter 9: GemFilter on a transformer trained for needle retrieval (the shared transformer: common/).
#include "chapters.hpp"
#include "gemfilter_selection.hpp"
#include "kv_eviction.hpp"
#include "needle_retrieval.hpp"

namespace featurelab::fourier_icl_pack {

void add_gemfilter(PackBuilder& pack) {
  pack.add<NeedleRetrieval>("needle-retrieval");
  pack.add<GemfilterSelection>("gemfilter-selection");
  pack.add<KvEviction>("kv-eviction");
}

}  // namespace featurelab::fourier_icl_pack

// Pack representation-theory: Shi 2024 (dissertation) chapters 6–8, their synthetic settings
// (the real-data parts — DomainBed, pretrained encoders — are out of reach; see README.md).
#include "chapters.hpp"

using namespace representation_theory;

FEATURELAB_PACK("representation-theory", "0.1.0") {
  register_chapter6(pack);
  register_chapter7(pack);
  register_chapter8(pack);
}

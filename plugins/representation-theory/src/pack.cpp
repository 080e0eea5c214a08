// Pack representation-theory: Shi 2024 (dissertation) chapters 6–8, their synthetic settings
// (the real-data parts — DomainBed, pretrained encoders — are out of reach; see README.md).
#include "chapters.hpp"

FEATURELAB_PACK("representation-theory", "0.1.0") {
  featurelab::representation_theory_pack::register_chapter6(pack);
  featurelab::representation_theory_pack::register_chapter7(pack);
  featurelab::representation_theory_pack::register_chapter8(pack);
}

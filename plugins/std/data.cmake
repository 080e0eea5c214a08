# Sources of the std transforms and augments.
set(STD_DATA_SOURCES
  src/register_data.cpp
  src/label_noise.cpp
  src/pair_mixing.cpp
  src/mixup.cpp
  src/midpoint_mixup.cpp
)
set(STD_DATA_TESTS
  tests/label_noise_test.cpp
  tests/pair_mixing_test.cpp
)

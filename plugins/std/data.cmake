# Sources of the std transforms.
set(STD_DATA_SOURCES
  src/register_data.cpp
  src/label_noise.cpp
)
set(STD_DATA_TESTS
  tests/label_noise_test.cpp
)

# Sources of the std data sets read from files (with their readers), transforms and augments.
set(STD_DATA_SOURCES
  src/register_data.cpp
  src/mnist_json.cpp
  src/mnist.cpp
  src/idx_file.cpp
  src/fashion_mnist.cpp
  src/label_noise.cpp
  src/pair_mixing.cpp
  src/mixup.cpp
  src/midpoint_mixup.cpp
)
set(STD_DATA_TESTS
  tests/mnist_test.cpp
  tests/fashion_mnist_test.cpp
  tests/label_noise_test.cpp
  tests/pair_mixing_test.cpp
)

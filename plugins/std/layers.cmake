# Sources of the std layers (featurelab/layer.hpp) and the `network` model that composes them.
set(STD_LAYER_SOURCES
  src/register_layers.cpp
  src/network_model.cpp
  src/layers/linear_layer.cpp
  src/layers/activation_layer.cpp
  src/layers/scale_layer.cpp
  src/layers/residual_layer.cpp
)
set(STD_LAYER_TESTS
  tests/network_test.cpp
)

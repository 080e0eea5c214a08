# Sources of the std models, losses and optimizers.
set(STD_LEARNING_SOURCES
  src/register_learning.cpp
  src/linear_model.cpp
  src/two_layer.cpp
  src/cross_entropy_loss.cpp
  src/logistic_loss.cpp
  src/hinge_loss.cpp
  src/squared_loss.cpp
  src/gd.cpp
  src/sgd.cpp
  src/adam.cpp
)
set(STD_LEARNING_TESTS
  tests/models_test.cpp
  tests/losses_optimizers_test.cpp
)

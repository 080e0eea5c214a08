# Sources of the std models, losses and optimizers.
set(STD_LEARNING_SOURCES
  src/register_learning.cpp
)
set(STD_LEARNING_TESTS
)

# Sources of the std distributions, trainer, probes and attacks.
set(STD_EXPERIMENT_SOURCES
  src/register_experiment.cpp
)
set(STD_EXPERIMENT_TESTS
)

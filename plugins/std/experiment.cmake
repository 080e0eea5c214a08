# Sources of the std distributions, trainer, probes and attacks.
set(STD_EXPERIMENT_SOURCES
  src/register_experiment.cpp
  src/gaussian_mixture_distribution.cpp
  src/xor_clusters_distribution.cpp
  src/standard_trainer.cpp
  src/accuracy_probe.cpp
  src/loss_probe.cpp
  src/weight_norms_probe.cpp
  src/neuron_feature_cosine_probe.cpp
  src/robust_accuracy_probe.cpp
  src/pgd_l2_attack.cpp
  src/fgsm_attack.cpp
)
set(STD_EXPERIMENT_TESTS
  tests/data_probes_attacks_test.cpp
)

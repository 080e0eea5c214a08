// Fixture: a shared library that is not a featurelab pack (no featurelab_pack entry point).
extern "C" int featurelab_fixture_unrelated_function() { return 42; }

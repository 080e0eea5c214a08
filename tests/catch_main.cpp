// Catch2's main for every test executable of the project but the contract test (which has options of its own).
#include "catch_session.hpp"

int main(int argc, char* argv[]) { return featurelab::testing::run_catch_session(argc, argv); }

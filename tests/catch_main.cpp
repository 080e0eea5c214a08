// Catch2's main for every test executable of the project.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

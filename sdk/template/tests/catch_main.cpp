// Catch2's main, for an SDK installed without featurelab::catch-main (CMakeLists.txt uses that one when
// it is there). Its own file: editing the tests does not compile it again.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

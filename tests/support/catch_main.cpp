// The one Catch2 main of the unit tests: compiled once (roofline_catch_main) and linked into each test program,
// which includes <catch2/catch.hpp> without CATCH_CONFIG_MAIN (the header's implementation is the slowest part
// of a test's compile: once, not ten times).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

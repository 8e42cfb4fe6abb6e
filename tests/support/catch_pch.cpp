// Compiles <catch2/catch.hpp> once as a precompiled header (roofline_catch_pch), which each unit-test program reuses.

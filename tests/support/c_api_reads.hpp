// Reads through the C ABI that several Catch2 tests share: a GPU's or a model's field, and a decode step, each
// REQUIREd to succeed (the library's message shown where it does not).
#pragma once

#include <catch2/catch.hpp>

#include <roofline.h>

#include <cmath>
#include <string>

namespace c_api_reads {

inline double gpu(const std::string& id, const char* field) {
    double v = NAN;
    REQUIRE(roofline_gpu(id.c_str(), field, &v) == ROOFLINE_OK);
    return v;
}

inline double model(const std::string& id, const char* field) {
    double v = NAN;
    INFO(id << "." << field << ": " << roofline_errmsg());
    REQUIRE(roofline_model(id.c_str(), field, &v) == ROOFLINE_OK);
    return v;
}

inline double step(const char* m, const char* g, double batch, double ctx, const char* w = "bf16", const char* kv = "",
                   double tp = 1, const char* profile = "bound") {
    double v = NAN;
    INFO(m << " on " << g << ": " << roofline_errmsg());
    REQUIRE(roofline_step_ms(m, g, batch, ctx, w, kv, tp, profile, &v) == ROOFLINE_OK);
    return v;
}

}  // namespace c_api_reads

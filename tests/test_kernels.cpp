// `bound` against measured kernels (tests/data/kernels: aiconfigurator's measurements, issue #44): no GEMM that an
// engine ran on a GPU of the catalog is faster than the roofline of `bound` for that GEMM (its FLOPs at the format's
// dense peak, its bytes at the memory bandwidth), or the catalog's peak or the bytes counted would be wrong.
//
// A kernel benchmark calls the same kernel again and again, so operands that fit in the L2 cache come from it, not
// from memory: the bytes that must come from memory are those beyond the L2 (the catalog's L2, or where it gives
// none 128 MB, more than any L2 of the catalog's GPUs with kernel data; RTX PRO 6000's is 128 MB). In a model's step
// the weights of every layer pass through, far beyond any L2: there `bound` counts them all.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "measurements.hpp"
#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"

using namespace roofline;

namespace {

struct Format {
    const char* name;  ///< gemm_dtype
    DType dtype;       ///< weights and activations (the matrix units compute in it)
};
// The formats whose compute dtype the catalog has a peak for; weight-only ones (int4_wo, int8_wo, sq) are left out.
constexpr Format kFormats[] = {{"bfloat16", DType::bf16}, {"fp8", DType::fp8}, {"fp8_block", DType::fp8_block},
                               {"nvfp4", DType::nvfp4}};

constexpr double kL2WhereNotGivenBytes = 128e6;

}  // namespace

TEST_CASE("no measured GEMM is faster than bound's roofline of it", "[kernels]") {
    const std::string dir = ROOFLINE_KERNELS_DIR;
    const Profile& bound = *find_profile("bound");
    std::size_t checked = 0, files = 0;
    std::vector<std::string> faster;
    double closest = 1e9;
    std::string closest_row;
    for (const measurements::Row& source : measurements::read(dir + "/SOURCES.csv")) {
        if (source["file"].find("/gemm-") == std::string::npos) continue;
        ++files;
        const auto gpu = find_gpu(source["gpu"]);
        REQUIRE(gpu);
        const double l2 = gpu->l2_mb > 0 ? gpu->l2_mb * 1e6 : kL2WhereNotGivenBytes;
        const std::vector<measurements::Row> rows = measurements::read(dir + "/" + source["file"]);
        CHECK(rows.size() == static_cast<std::size_t>(source.number("rows")));
        for (const measurements::Row& r : rows) {
            const auto f = std::find_if(std::begin(kFormats), std::end(kFormats),
                                        [&](const Format& x) { return r["gemm_dtype"] == x.name; });
            if (f == std::end(kFormats)) continue;
            const double m = r.number("m"), n = r.number("n"), k = r.number("k");
            const double b = bytes_per_value(f->dtype);
            std::vector<Operator> ops(1);
            ops[0].name = "gemm";
            ops[0].flops = 2 * m * n * k;
            ops[0].bytes = std::max(0.0, m * k * b + k * n * b + m * n * 2 - l2);  // A, B, and C in 16 bits
            ops[0].tokens = m;
            ops[0].layers = 1;
            ops[0].compute = compute_dtype(f->dtype);
            const double at_least = estimate(ops, *gpu, bound);
            const double measured = r.number("latency");
            ++checked;
            std::ostringstream row;
            row << source["file"] << ": " << r["gemm_dtype"] << " m " << m << " n " << n << " k " << k << ": measured "
                << measured << " ms, bound " << at_least << " ms";
            if (measured / at_least < closest) {
                closest = measured / at_least;
                closest_row = row.str();
            }
            if (measured < at_least) faster.push_back(row.str());
        }
    }
    INFO("closest to bound: " << closest_row << " (" << closest << "x)");
    CHECK(files >= 27);       // 9 GPUs x 3 engines
    CHECK(checked >= 60000);  // the extracts' rows in these formats
    for (std::size_t i = 0; i < std::min<std::size_t>(faster.size(), 10); ++i) INFO(faster[i]);
    CHECK(faster.empty());
    CHECK(closest >= 1);
}

// The power model (roofline/power.hpp) and the energy formulas (issue #34): energy within idle and board power for
// the step's time, the power model's values against a hand computation, energy per token falling as the batch grows,
// bound's energy the least, and errors that name the argument.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"
#include "roofline/power.hpp"

using namespace roofline;

namespace {

GpuSpec gpu(const char* id) { return *find_gpu(id); }

}  // namespace

TEST_CASE("the power model's parameters are physical shares and its catalog fields read") {
    const PowerModel& m = power_model();
    for (double share : {m.active, m.compute, m.memory_hbm, m.memory_gddr, m.memory_lpddr}) {
        CHECK(share >= 0);
        CHECK(share <= 1);
    }
    CHECK(m.compute == 1);
    CHECK(gpu("h200").idle_w == Approx(80.3));
    CHECK(gpu("h200").host_w == Approx(575));
    CHECK(gpu("rtx-4090").memory_kind == "GDDR");
    CHECK(gpu("h100-sxm").memory_kind == "HBM");
    CHECK(gpu("dgx-spark").memory_kind == "LPDDR");
    // Without a measured idle: idle_fraction of the board power; without a host: host_fraction of it.
    CHECK(idle_power_w(gpu("h100-sxm")) == Approx(m.idle_fraction * 700));
    CHECK(idle_power_w(gpu("h200")) == Approx(80.3));
    CHECK(host_power_w(gpu("mi300x")) == Approx(m.host_fraction * 750));
    CHECK(host_power_w(gpu("b200")) == Approx((14300.0 - 8 * 1000) / 8));
    CHECK(memory_share(gpu("rtx-3090")) == m.memory_gddr);
    CHECK(memory_share(gpu("h200")) == m.memory_hbm);
}

TEST_CASE("a step's energy is the power model's, computed by hand") {
    const GpuSpec h100 = gpu("h100-sxm");  // 989.4 TFLOP/s bf16, 3.35 TB/s, 700 W
    PowerModel m;
    m.active = 0.1;
    m.compute = 1;
    m.memory_hbm = 0.6;
    m.idle_fraction = 0.1;
    Operator op;
    op.flops = 989.4e12 * 0.002;  // 2 ms at the peak
    op.bytes = 3.35e12 * 0.004;   // 4 ms at the bandwidth
    op.compute = DType::bf16;
    const std::vector<Operator> ops{op};
    // idle 70 W for 10 ms; (700 - 70) W x (0.1 x 10 + 1 x 2 + 0.6 x 4) ms = 630 x 5.4 ms.
    const StepEnergy e = step_energy(ops, h100, 10, m);
    CHECK(e.joules == Approx((70 * 10 + 630 * 5.4) / 1000));
    CHECK(e.watts == Approx(70 + 630 * 0.54));
    CHECK(e.compute_use == Approx(0.2));
    CHECK(e.memory_use == Approx(0.4));
    // A step as short as its roofline: the min clips the dynamic part at the step's time: board power.
    const StepEnergy tight = step_energy(ops, h100, 4, m);
    CHECK(tight.watts == Approx(700));
    // Never below idle: a step with nothing in it draws idle plus the active share.
    CHECK(step_energy({}, h100, 10, m).watts == Approx(70 + 63));
    // A GPU without a board power is refused.
    GpuSpec none = h100;
    none.power_w = 0;
    CHECK_THROWS_AS(step_energy(ops, none, 10, m), Error);
}

TEST_CASE("ROOFLINE_ENERGY_J: within idle and board power for the step's time, lower per token as the batch grows") {
    for (const char* g : {"h100-sxm", "h200", "b200", "mi355x", "rtx-4090", "a100-sxm-80gb"}) {
        const GpuSpec spec = gpu(g);
        double previous = INFINITY;
        for (double batch : {1.0, 4.0, 16.0, 64.0, 128.0}) {
            for (const char* profile : {"bound", "typical"}) {
                const double j = formula::energy_j("llama-3.1-8b", g, batch, 2048, "native", "bf16", 1, profile);
                const double ms = formula::step_ms("llama-3.1-8b", g, batch, 2048, "native", "bf16", 1, profile);
                INFO(g << " batch " << batch << " " << profile);
                CHECK(j * batch <= spec.power_w * ms / 1000 * (1 + 1e-12));
                CHECK(j * batch >= idle_power_w(spec) * ms / 1000 * (1 - 1e-12));
            }
            const double typical = formula::energy_j("llama-3.1-8b", g, batch, 2048, "native", "bf16", 1, "typical");
            CHECK(typical < previous);
            previous = typical;
            // bound's step is the shortest, and its energy the least: the idle and busy shares grow with the time.
            CHECK(formula::energy_j("llama-3.1-8b", g, batch, 2048, "native", "bf16", 1, "bound") <= typical);
        }
    }
}

TEST_CASE("ROOFLINE_ENERGY_J counts every GPU of the replica") {
    // Eight GPUs in tensor parallel each run an eighth of the step: the energy of the replica is eight GPUs' worth.
    const double ms8 = formula::step_ms("llama-3.1-70b", "h100-sxm", 32, 4096, "fp8", "bf16", 8, "typical");
    const double j8 = formula::energy_j("llama-3.1-70b", "h100-sxm", 32, 4096, "fp8", "bf16", 8, "typical");
    const double w_per_gpu = j8 * 32 / 8 / (ms8 / 1000);
    CHECK(w_per_gpu > idle_power_w(gpu("h100-sxm")));
    CHECK(w_per_gpu <= 700);
}

TEST_CASE("ROOFLINE_PREFILL_ENERGY_J: a compute-bound prefill draws near board power") {
    const double ms = formula::ttft_ms("llama-3.1-8b", "h100-sxm", 8192, 4, "native", 1, "bound");
    const double j = formula::prefill_energy_j("llama-3.1-8b", "h100-sxm", 8192, 4, "native", 1, "bound");
    const double watts = j * 4 * 8192 / (ms / 1000);
    CHECK(watts <= 700 * (1 + 1e-12));
    CHECK(watts > 0.9 * 700);
    // Per prompt token, far less than a decode token at batch 1.
    CHECK(j < formula::energy_j("llama-3.1-8b", "h100-sxm", 1, 8192, "native", "bf16", 1, "bound") / 10);
}

TEST_CASE("the energy formulas' errors name the argument") {
    try {
        formula::energy_j("llama-3.1-8b", "h100-sxm", 0, 1024, "native", "bf16", 1, "typical");
        FAIL("batch 0 accepted");
    } catch (const Error& e) {
        CHECK(e.argument() == "batch");
    }
    try {
        formula::energy_j("llama-3.1-8b", "no-such-gpu", 1, 1024, "native", "bf16", 1, "typical");
        FAIL("an unknown GPU accepted");
    } catch (const Error& e) {
        CHECK(e.argument() == "gpu");
        CHECK(e.status() == Status::unknown_id);
    }
    try {
        formula::prefill_energy_j("llama-3.1-8b", "h100-sxm", 500000, 1, "native", 1, "typical");
        FAIL("a prompt beyond the window accepted");
    } catch (const Error& e) {
        CHECK(e.argument() == "prompt_tokens");
    }
}

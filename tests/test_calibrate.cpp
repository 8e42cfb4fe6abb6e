// The one fitter of profiles (roofline/calibrate.hpp) and profiles written as text, which every formula's
// profile argument takes.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"

using namespace roofline;
using Catch::Matchers::Contains;

namespace {

/// A lab's engine, as its measurements would show it: what the fit must find again.
const Profile kLab{"lab", 0.7, 0.55, 0.8, 0.5, 12.0};

/// Measured rows made by the model itself under kLab: decode steps and prefills of two models on H100s at
/// tp 1, 2 and 4, so that every parameter matters to some rows.
std::vector<CalibrationCase> lab_rows() {
    std::vector<CalibrationCase> rows;
    const GpuSpec gpu = *find_gpu("h100-sxm");
    for (const char* id : {"llama-3.1-8b", "llama-3.1-70b"}) {
        const ModelSpec m = *find_model(id);
        for (double tp : {1.0, 2.0, 4.0}) {
            if (m.params_b() * 2 / tp > 70) continue;  // 70B in bf16 fills more than one GPU of 80 GB
            const DeploymentRef d{m, gpu, DType::bf16, DType::bf16, tp};
            for (double batch : {1.0, 16.0, 128.0}) {
                CalibrationCase c{decode_operators(d, batch, 2048), gpu, "step_ms", 0};
                rows.push_back(c);
            }
            for (double prompt : {512.0, 4096.0}) {
                CalibrationCase c{prefill_operators(d, 1, prompt), gpu, "ttft_ms", 0};
                rows.push_back(c);
            }
        }
    }
    for (CalibrationCase& c : rows) c.measured_ms = predict_ms(c, kLab);
    return rows;
}

}  // namespace

TEST_CASE("the fitter finds again the profile that made the measurements", "[calibrate]") {
    const std::vector<CalibrationCase> rows = lab_rows();
    REQUIRE(rows.size() == 20);  // 8B at tp 1, 2 and 4; 70B at tp 4 (in bf16 it needs more than two GPUs)
    const Calibration c = calibrate(rows, *find_profile("typical"));
    CHECK(c.rows == rows.size());
    CHECK(c.base == "typical");
    CHECK(c.profile.bandwidth_efficiency == Approx(kLab.bandwidth_efficiency).epsilon(0.02));
    CHECK(c.profile.compute_efficiency == Approx(kLab.compute_efficiency).epsilon(0.02));
    CHECK(c.profile.step_overhead_ms == Approx(kLab.step_overhead_ms).epsilon(0.05));
    CHECK(c.mdape_percent < 1);
    CHECK(c.loo_mdape_percent < 1.5);
    // Not fitted: kept from the base profile.
    CHECK(c.profile.expert_imbalance == find_profile("typical")->expert_imbalance);
    REQUIRE(c.predicted_ms.size() == rows.size());
    REQUIRE(c.loo_predicted_ms.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) CHECK(c.predicted_ms[i] == Approx(rows[i].measured_ms).epsilon(0.03));
}

TEST_CASE("a parameter that no row depends on keeps the base profile's value", "[calibrate]") {
    std::vector<CalibrationCase> rows;
    for (const CalibrationCase& c : lab_rows())  // tp 1 only: no all-reduce, nothing on the interconnect
        if (std::none_of(c.ops.begin(), c.ops.end(), [](const Operator& o) { return o.link_bytes > 0; }))
            rows.push_back(c);
    REQUIRE(rows.size() >= 5);
    Profile base = *find_profile("typical");
    base.interconnect_efficiency = 0.9;
    base.allreduce_latency_us = 7;
    const Calibration c = calibrate(rows, base);
    CHECK(c.profile.interconnect_efficiency == 0.9);
    CHECK(c.profile.allreduce_latency_us == 7);
}

TEST_CASE("a fitted profile as text reads back to the same profile, and every formula takes it", "[calibrate]") {
    const Calibration c = calibrate(lab_rows(), *find_profile("typical"));
    const std::string text = profile_text(c);
    CHECK(text.rfind("fit(typical; n=20; mdape=", 0) == 0);
    CHECK_THAT(text, Contains("bw=") && Contains("mfu=") && Contains("link=") && Contains("step_ms=") &&
                         Contains("allreduce_us=") && Contains("ep_imbalance=1.11") && Contains("overlap_ep=0"));
    CHECK(c.profile.name == text);
    const Profile back = profile_from_text(text);
    CHECK(back.bandwidth_efficiency == c.profile.bandwidth_efficiency);
    CHECK(back.compute_efficiency == c.profile.compute_efficiency);
    CHECK(back.interconnect_efficiency == c.profile.interconnect_efficiency);
    CHECK(back.step_overhead_ms == c.profile.step_overhead_ms);
    CHECK(back.allreduce_latency_us == c.profile.allreduce_latency_us);
    CHECK(back.expert_imbalance == c.profile.expert_imbalance);
    CHECK(back.overlap_expert_traffic == c.profile.overlap_expert_traffic);

    // A formula with the text computes what the operator model gives under the fitted profile.
    const GpuSpec gpu = *find_gpu("h100-sxm");
    const ModelSpec m = *find_model("llama-3.1-8b");
    std::vector<Operator> ops = decode_operators(DeploymentRef{m, gpu, DType::bf16, DType::bf16, 1}, 32, 4096);
    CHECK(formula::step_ms("llama-3.1-8b", "h100-sxm", 32, 4096, "bf16", "", 1, text) == estimate(ops, gpu, back));
    CHECK(formula::step_ms("llama-3.1-8b", "h100-sxm", 32, 4096, "bf16", "", 1, text) !=
          formula::step_ms("llama-3.1-8b", "h100-sxm", 32, 4096, "bf16", "", 1, "typical"));
    // The planner's formulas take it too.
    CHECK(formula::slo_batch("llama-3.1-8b", "h100-sxm", 4096, 50, "bf16", "", 1, text, 0.9) > 0);
}

TEST_CASE("a tampered or malformed profile text is an error naming the parameter", "[calibrate]") {
    const std::string good =
        "fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.8, mfu=0.6, link=0.7, step_ms=1.2, allreduce_us=15, "
        "ep_imbalance=1.11, overlap_ep=0";
    CHECK(profile_from_text(good).bandwidth_efficiency == 0.8);
    auto reason = [](const std::string& text) {
        try {
            profile_from_text(text);
        } catch (const Error& e) {
            CHECK(e.argument() == "profile");
            return e.reason();
        }
        return std::string("no error");
    };
    auto with = [&](const std::string& from, const std::string& to) {
        std::string t = good;
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    CHECK_THAT(reason(with("bw=0.8", "bw=1.7")), Contains("'bw'") && Contains("at most 1") && Contains("1.7"));
    CHECK_THAT(reason(with("mfu=0.6", "mfu=0")), Contains("'mfu'") && Contains("above 0"));
    CHECK_THAT(reason(with("step_ms=1.2", "step_ms=-1")), Contains("'step_ms'"));
    CHECK_THAT(reason(with("link=0.7", "link=fast")), Contains("'link'") && Contains("not a number"));
    CHECK_THAT(reason(with("ep_imbalance=1.11", "ep_imbalance=0.5")), Contains("'ep_imbalance'"));
    CHECK_THAT(reason(with("overlap_ep=0", "overlap_ep=2")), Contains("'overlap_ep'"));
    CHECK_THAT(reason(with(", allreduce_us=15", "")), Contains("no parameter 'allreduce_us'"));
    CHECK_THAT(reason(with("bw=0.8", "bw=0.8, bw=0.9")), Contains("'bw' given twice"));
    CHECK_THAT(reason(with("mfu=0.6", "flops=0.6")), Contains("no parameter 'flops'"));
    CHECK_THAT(reason(with("):", ")")), Contains("'):'"));
    CHECK_THAT(reason(with("link=0.7", "link 0.7")), Contains("not parameter=value"));
    // Through a formula: the formula and the argument named, as for any bad argument.
    try {
        formula::step_ms("llama-3.1-8b", "h100-sxm", 32, 4096, "bf16", "", 1, with("bw=0.8", "bw=1.7"));
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.where() == "ROOFLINE_STEP_MS");
        CHECK(e.argument() == "profile");
        CHECK_THAT(std::string(e.what()), Contains("argument 'profile'") && Contains("'bw'"));
    }
    // A name that is no profile and no profile text stays an unknown id.
    CHECK(find_profile("fitted") == nullptr);
}

TEST_CASE("a fit needs enough rows", "[calibrate]") {
    std::vector<CalibrationCase> rows = lab_rows();
    rows.resize(2);
    try {
        calibrate(rows, *find_profile("typical"));
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.argument() == "measurements");
        CHECK(e.status() == Status::no_solution);
        CHECK_THAT(e.reason(), Contains("2 measured rows") && Contains("at least 3"));
    }
}

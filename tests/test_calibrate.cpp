// The one fitter of profiles (roofline/calibrate.hpp) and profiles written as text, which every formula's
// profile argument takes.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <string>
#include <variant>
#include <vector>

#include "roofline/calibrate.hpp"
#include "roofline/kernels.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

using namespace roofline;
using Catch::Matchers::Contains;

namespace {

/// A lab's engine, as its measurements would show it: what the fit must find again.
/// It differs from typical's own parameters in those that ROOFLINE_CALIBRATE fits (kCalibrateMoves); the others are
/// typical's, as a fit from typical keeps them.
Profile make_lab() {
    Profile p = with_parameters(*find_profile("typical"), {{"bw", 0.7}, {"mfu", 0.55}, {"link", 0.8}, {"step_ms", 0.5},
                                                           {"allreduce_us", 12.0}, {"mfu_tokens", 100}, {"attn", 0.8}});
    p.vendors.clear();
    p.name = "lab";
    return p;
}
const Profile kLab = make_lab();

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
                CalibrationCase c{decode_operators(d, batch, 2048), gpu, "step_ms", 0, {}};
                rows.push_back(c);
            }
            for (double prompt : {512.0, 4096.0}) {
                CalibrationCase c{prefill_operators(d, 1, prompt), gpu, "ttft_ms", 0, {}};
                rows.push_back(c);
            }
        }
    }
    for (CalibrationCase& c : rows) c.measured_ms = predict_ms(c, kLab);
    return rows;
}

}  // namespace

TEST_CASE("with_parameters sets each named parameter, the rest stays, an unknown key is refused", "[calibrate]") {
    const Profile base = *find_profile("typical");
    const Profile p = with_parameters(base, {{"bw", 0.5}, {"layer_us", 3}});
    CHECK(p.bandwidth_efficiency == 0.5);
    CHECK(p.layer_overhead_us == 3);
    CHECK(p.compute_efficiency == base.compute_efficiency);
    CHECK(p.alltoall_latency_us == base.alltoall_latency_us);
    CHECK_THROWS_AS(with_parameters(base, {{"bandwidth_efficiency", 0.5}}), Error);  // the text's key, not the JSON's
}

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

TEST_CASE("the fitter finds the lab's profile again from a base with a high cost per step", "[calibrate]") {
    // A base whose fixed cost of a step (2.4 ms, as a fit on client-side TPOTs gives) trades against the bandwidth on
    // decode steps: a descent from it alone stays where the bandwidth is full and the compute roof of few tokens
    // stands in for the weights' read (15% off); the fit's second start, without that cost, finds the lab.
    const std::vector<CalibrationCase> rows = lab_rows();
    const Profile base =
        with_parameters(*find_profile("typical"), {{"step_ms", 2.4}, {"allreduce_us", 30}, {"mfu_tokens", 39}, {"bw", 0.92}});
    const Calibration c = calibrate(rows, base);
    CHECK(c.profile.bandwidth_efficiency == Approx(kLab.bandwidth_efficiency).epsilon(0.02));
    CHECK(c.profile.step_overhead_ms == Approx(kLab.step_overhead_ms).epsilon(0.05));
    CHECK(c.mdape_percent < 1);
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
    CHECK(text.rfind("fit(typical; n=20; loo=", 0) == 0);
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

// ---- ROOFLINE_CALIBRATE: measured rows in a table, as a spreadsheet's range gives them. -------------------

namespace {

Arg text_arg(std::string s) { return Arg{std::variant<double, std::string>(std::in_place_type<std::string>, std::move(s))}; }

/// The lab's profile (kLab) as a profile text: what made the "measurements" below.
std::string lab_text() {
    Calibration c;
    c.profile = kLab;
    c.base = "lab";
    return profile_text(c);
}

/// A sheet's range of measured rows: a header, then decode steps and prefills that STEP_MS and TTFT_MS compute
/// under the lab's profile, one empty row among them, and the cells of the formats and tp left empty in some.
std::string lab_sheet() {
    const std::string lab = lab_text();
    std::string t = "model\tgpu\tweight_dtype\tkv_dtype\ttp\tbatch\tcontext\tmetric\tvalue\n";
    for (double tp : {1.0, 2.0, 4.0}) {
        for (double batch : {1.0, 16.0, 128.0}) {
            const double ms = formula::step_ms("llama-3.1-8b", "h100-sxm", batch, 2048, "bf16", "bf16", tp, lab);
            t += fmt::format("llama-3.1-8b\th100-sxm\tbf16\t{}\t{}\t{}\t2048\tstep_ms\t{}\n", tp == 1 ? "" : "bf16",
                             tp == 1 ? std::string() : fmt::format("{}", tp), batch, ms);
        }
        for (double prompt : {512.0, 4096.0}) {
            const double ms = formula::ttft_ms("llama-3.1-8b", "h100-sxm", prompt, 1, "bf16", tp, lab);
            t += fmt::format("llama-3.1-8b\th100-sxm\tbf16\tbf16\t{}\t1\t{}\tttft_ms\t{}\n", tp, prompt, ms);
        }
        if (tp == 1) t += "\t\t\t\t\t\t\t\t\n";
    }
    return t;
}

std::string calibrate_reason(const std::string& sheet, Status status = Status::invalid_argument) {
    try {
        formula::calibrate(sheet, "");
    } catch (const Error& e) {
        CHECK(e.where() == "ROOFLINE_CALIBRATE");
        CHECK(e.argument() == "measurements");
        CHECK(e.status() == status);
        return e.reason();
    }
    return "no error";
}

}  // namespace

TEST_CASE("a table argument's text: rows by line breaks, cells by tabs, numbers read back exactly", "[calibrate]") {
    const Table t = table_from_text("a\t1.5\t\r\nb\t-2e3\n\t0.1\tx y\n");
    REQUIRE(t.rows == 3);
    REQUIRE(t.cols == 3);
    CHECK(std::get<std::string>(t.cells[0]) == "a");
    CHECK(std::get<double>(t.cells[1]) == 1.5);
    CHECK(std::get<std::string>(t.cells[2]).empty());
    CHECK(std::get<double>(t.cells[4]) == -2000);
    CHECK(std::get<std::string>(t.cells[5]).empty());  // a short row gets empty cells
    CHECK(std::get<double>(t.cells[7]) == 0.1);
    CHECK(std::get<std::string>(t.cells[8]) == "x y");
    CHECK(table_from_text("").rows == 0);
    CHECK(std::get<std::string>(table_from_text("1.5x").cells[0]) == "1.5x");  // not whole a number: a text
    Table u;
    u.rows = 1;
    u.cols = 3;
    u.cells = {std::string("m"), 0.1 + 0.2, std::string()};
    CHECK(table_text(u, "measurements") == fmt::format("m\t{}\t", 0.1 + 0.2));
    CHECK(table_from_text(table_text(u, "measurements")) == u);
    u.cells[0] = std::string("a\tb");
    CHECK_THROWS_WITH(table_text(u, "measurements"), Contains("'measurements'") && Contains("row 1, cell 1"));
}

TEST_CASE("ROOFLINE_CALIBRATE fits a sheet's measured rows and every formula takes its text", "[calibrate]") {
    const std::string sheet = lab_sheet();
    const Value v = call("ROOFLINE_CALIBRATE", std::vector<Arg>{text_arg(sheet)});
    const std::string fitted = std::get<std::string>(v.value);
    CHECK(fitted.rfind("fit(typical; n=15; loo=", 0) == 0);  // the header and the empty row skipped
    const Profile p = profile_from_text(fitted);
    CHECK(p.bandwidth_efficiency == Approx(kLab.bandwidth_efficiency).epsilon(0.02));
    CHECK(p.compute_efficiency == Approx(kLab.compute_efficiency).epsilon(0.02));
    CHECK(p.interconnect_efficiency == Approx(kLab.interconnect_efficiency).epsilon(0.05));
    CHECK(p.step_overhead_ms == Approx(kLab.step_overhead_ms).epsilon(0.05));
    CHECK(p.mfu_half_tokens == Approx(kLab.mfu_half_tokens).epsilon(0.05));
    CHECK(p.attention_efficiency == Approx(kLab.attention_efficiency).epsilon(0.02));
    CHECK(p.layer_overhead_us == kLab.layer_overhead_us);  // not fitted by ROOFLINE_CALIBRATE: the base's
    // And it predicts every row.
    const Table rows = formula::calibrate_rows(sheet, "typical");
    for (std::size_t r = 1; r < rows.rows; ++r) {
        const double measured = std::get<double>(rows.cells[r * rows.cols + 4]);
        const double predicted = std::get<double>(rows.cells[r * rows.cols + 5]);
        CHECK(predicted == Approx(measured).epsilon(0.02));
    }
    // The fitted text predicts the rows it was fitted on.
    const double measured = formula::step_ms("llama-3.1-8b", "h100-sxm", 16, 2048, "bf16", "bf16", 2, lab_text());
    CHECK(formula::step_ms("llama-3.1-8b", "h100-sxm", 16, 2048, "bf16", "bf16", 2, fitted) ==
          Approx(measured).epsilon(0.01));
    // Deterministic: the same rows give the same text.
    CHECK(formula::calibrate(sheet, "typical") == fitted);
    // A profile text as the base: the new fit names the base's base, not the whole text.
    const std::string again = formula::calibrate(sheet, lab_text());
    CHECK(again.rfind("fit(lab; n=15; ", 0) == 0);
    CHECK_THROWS_WITH(formula::calibrate(sheet, "fast"), Contains("'base_profile'"));
}

TEST_CASE("ROOFLINE_CALIBRATE reads its columns by the header's names: any order, other columns ignored",
          "[calibrate]") {
    // The same five steps in the formula's order and shuffled with two more columns: the same fit.
    const std::string rows[] = {"llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t1\t1024\tstep_ms\t7.9",
                                "llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t8\t1024\tstep_ms\t8.3",
                                "llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t32\t2048\tstep_ms\t10.1",
                                "llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t64\t2048\tstep_ms\t12.6",
                                "llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t1\t2048\tttft_ms\t120"};
    std::string plain, shuffled = "Value\tengine\tmetric\tcontext\tbatch\tgpu\tmodel\tnote\n";
    for (const std::string& r : rows) {
        plain += r + "\n";
        std::vector<std::string> c;
        for (std::size_t at = 0, tab; at <= r.size(); at = tab + 1) {
            tab = std::min(r.find('\t', at), r.size());
            c.push_back(r.substr(at, tab - at));
        }
        // weight_dtype, kv_dtype and tp left out: bf16 (native for llama-3.1-8b), bf16, 1.
        shuffled += c[8] + "\tvllm\t" + c[7] + "\t" + c[6] + "\t" + c[5] + "\t" + c[1] + "\t" + c[0] + "\tsome text\n";
    }
    CHECK(formula::calibrate(shuffled, "typical") == formula::calibrate(plain, "typical"));
    // Two files one after another, each with its header in its own order (roofline calibrate keeps them): the same.
    const std::string head = "model\tgpu\tweight_dtype\tkv_dtype\ttp\tbatch\tcontext\tmetric\tvalue\n";
    CHECK(formula::calibrate(head + rows[0] + "\n" + rows[1] + "\n" + shuffled, "typical") ==
          formula::calibrate(rows[0] + "\n" + rows[1] + "\n" + plain, "typical"));
    // The six the fit needs must be named; each once.
    CHECK_THAT(calibrate_reason("model\tgpu\tbatch\tcontext\tms\n" + plain),
               Contains("row 1: the header has no column 'metric', 'value'"));
    CHECK_THAT(calibrate_reason("model\tgpu\tbatch\tcontext\tmetric\tvalue\tGPU\n" + plain),
               Contains("the header names 'gpu' twice (columns 2 and 7)"));
    // A header that names fewer than three of the columns is a header only: the columns by place, as before 0.12.
    const std::string words = "Model\tGPU type\tweights\tKV\tTP\tsequences\tctx\twhat\tms\n";  // two names
    CHECK(formula::calibrate(words + plain, "typical") == formula::calibrate(plain, "typical"));
}

TEST_CASE("ROOFLINE_CALIBRATE names the row and the column of a bad measurement", "[calibrate]") {
    const std::string head = "model\tgpu\tweight_dtype\tkv_dtype\ttp\tbatch\tcontext\tmetric\tvalue\n";
    const std::string ok = "llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t8\t2048\tstep_ms\t9.5\n";
    auto sheet = [&](const std::string& bad) { return head + ok + ok + ok + ok + ok + bad; };
    CHECK_THAT(calibrate_reason(sheet("llama-9b\th100-sxm\tbf16\tbf16\t1\t8\t2048\tstep_ms\t9.5"), Status::unknown_id),
               Contains("row 7, model: ") && Contains("llama-9b"));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxn\tbf16\tbf16\t1\t8\t2048\tstep_ms\t9.5"), Status::unknown_id),
               Contains("row 7, gpu: "));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tfp9\tbf16\t1\t8\t2048\tstep_ms\t9.5"), Status::unknown_id),
               Contains("row 7, weight_dtype: "));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\tmany\t2048\tstep_ms\t9.5")),
               Contains("row 7, batch: must be a number (got 'many')"));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t0.5\t2048\tstep_ms\t9.5")),
               Contains("row 7, batch: ") && Contains("whole number"));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tbf16\tbf16\t3\t8\t2048\tstep_ms\t9.5")),
               Contains("row 7, tp: "));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t8\t0\tttft_ms\t9.5")),
               Contains("row 7, context: "));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t8\t2048\ttpot\t9.5")),
               Contains("row 7, metric: 'tpot' is neither step_ms nor ttft_ms"));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t8\t2048\tstep_ms\t-1")),
               Contains("row 7, value: must be a time above 0 ms"));
    CHECK_THAT(calibrate_reason(sheet("llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t8\t2048\tstep_ms\t")),
               Contains("row 7, value: is empty"));
    CHECK_THAT(calibrate_reason(sheet("\th100-sxm\tbf16\tbf16\t1\t8\t2048\tstep_ms\t9")), Contains("row 7, model: is empty"));
    CHECK_THAT(calibrate_reason(sheet("3\th100-sxm\tbf16\tbf16\t1\t8\t2048\tstep_ms\t9")),
               Contains("row 7, model: must be a text (got 3)"));
    // Without a header the columns are by place: a tenth one is refused (a header naming them lets it be).
    CHECK_THAT(calibrate_reason(ok + ok + ok + ok + ok + "llama-3.1-8b\th100-sxm\tbf16\tbf16\t1\t8\t2048\tstep_ms\t9.5\tnote"),
               Contains("row 6: column 10 is not empty"));
    CHECK_THAT(calibrate_reason("a\tb\tc\n1\t2\t3\n"), Contains("has 3 columns: it takes 9, model, gpu"));
    // A later row without a number is a header when it names three columns or more (it sets the columns of the
    // rows below it: files one after another), else a bad row.
    CHECK(formula::calibrate(sheet(head), "typical") == formula::calibrate(head + ok + ok + ok + ok + ok, "typical"));
    CHECK_THAT(calibrate_reason(sheet("a\tb\tc\td\te\tf\tg\th\ti")), Contains("row 7, tp: must be a number (got 'e')"));
    // Too few rows: no answer (#N/A in Calc), and ROOFLINE_WHY says why.
    CHECK_THAT(calibrate_reason(head + ok + ok, Status::no_solution), Contains("2 measured rows: a fit needs at least 3"));
    CHECK_THAT(calibrate_reason("", Status::no_solution), Contains("0 measured rows"));
    const Value why = call("ROOFLINE_WHY", std::vector<Arg>{text_arg("ROOFLINE_CALIBRATE"),
                                                             text_arg(sheet("llama-9b\th100-sxm\t\t\t\t8\t2048\tstep_ms\t9"))});
    CHECK_THAT(std::get<std::string>(why.value), Contains("argument 'measurements'") && Contains("row 7, model: "));
    // A number where the table belongs: the C ABI's and Python's callers pass a text.
    CHECK_THROWS_WITH(call("ROOFLINE_CALIBRATE", std::vector<Arg>{Arg{1.0}}), Contains("must be a table"));
}

namespace {

/// Every parameter at its neutral value (no efficiency lost, no fixed cost), overlap off: the profiles below
/// differ from it in one parameter each.
Profile neutral() {
    Profile p;
    p.name = "neutral";
    return p;
}

double op_ms(std::vector<Operator> ops, const GpuSpec& gpu, const Profile& p, std::string_view name) {
    estimate(ops, gpu, p);
    for (const Operator& op : ops)
        if (op.name == name) return op.ms;
    FAIL("no operator " << name);
    return 0;
}

}  // namespace

TEST_CASE("the parameters of 0.9: a cost per layer, compute that grows with the tokens, attention, all-to-all",
          "[calibrate][profile]") {
    const GpuSpec gpu = *find_gpu("h100-sxm");
    const ModelSpec m = *find_model("llama-3.1-8b");
    const DeploymentRef d{m, gpu, DType::bf16, DType::bf16, 1};
    const auto decode = decode_operators(d, 8, 4096);
    const auto prefill = prefill_operators(d, 1, 4096);
    std::vector<Operator> ops = decode;
    const double base = estimate(ops, gpu, neutral());

    SECTION("layer_us: each of the model's layers costs it once a forward pass") {
        Profile p = neutral();
        p.layer_overhead_us = 10;
        ops = decode;
        CHECK(estimate(ops, gpu, p) == Approx(base + m.layers * 10 / 1e3));
        CHECK(ops.back().name == "overhead");
        CHECK(ops.back().ms == Approx(m.layers * 10 / 1e3));
    }
    SECTION("mfu_tokens: a multiply of m rows reaches m / (m + mfu_tokens) of the compute roof") {
        Profile p = neutral();
        p.mfu_half_tokens = 4096;  // the prefill's 4096 tokens: half the roof; the MLP stays compute bound
        const double full = op_ms(prefill, gpu, neutral(), "mlp"), half = op_ms(prefill, gpu, p, "mlp");
        CHECK(half == Approx(2 * full));
        // A decode step of 8 sequences at a third of the roof still reads its weights for longer: memory bound.
        Profile q = neutral();
        q.mfu_half_tokens = 16;
        CHECK(op_ms(decode, gpu, q, "mlp") == op_ms(decode, gpu, neutral(), "mlp"));
        // With 4096 tokens for half the roof, 8 rows reach 8 / 4104 of it on the matrix units; they run on the vector
        // units instead, at the FP32 peak (bf16 weights: nothing to dequantize), the faster of the two.
        std::vector<Operator> slow = decode;
        estimate(slow, gpu, p);
        const double vector_tflops = std::min(gpu.peak_tflops(DType::bf16), gpu.fp32);
        REQUIRE(vector_tflops > gpu.peak_tflops(DType::bf16) * 8 / 4104);
        for (const Operator& op : slow)
            if (op.name == "mlp") {
                CHECK(op.dequant_flops == 0);
                CHECK(op.ms == Approx(std::max(op.flops / (vector_tflops * 1e12) * 1e3,
                                               op.bytes / (gpu.hbm_tbs * 1e12) * 1e3)));
            }
        // Without the vector path (the routed experts: one grouped multiply), 8 / 4104 of the roof: compute bound.
        const Operator& mlp = *std::find_if(slow.begin(), slow.end(), [](const Operator& op) { return op.name == "mlp"; });
        std::vector<Operator> grouped{mlp};
        grouped[0].kind = OperatorKind::experts;
        estimate(grouped, gpu, p);
        CHECK(grouped[0].bound == Resource::compute);
        CHECK(grouped[0].ms == Approx(mlp.flops / (gpu.peak_tflops(mlp.compute) * 1e12 * 8 / 4104) * 1e3));
        // Norms are no multiply (no rows): untouched.
        CHECK(op_ms(prefill, gpu, p, "norms") == op_ms(prefill, gpu, neutral(), "norms"));
    }
    SECTION("attn: attention kernels reach that fraction of both roofs") {
        Profile p = neutral();
        p.attention_efficiency = 0.5;
        CHECK(op_ms(decode, gpu, p, "attention") == Approx(2 * op_ms(decode, gpu, neutral(), "attention")));
        CHECK(op_ms(prefill, gpu, p, "attention") == Approx(2 * op_ms(prefill, gpu, neutral(), "attention")));
        CHECK(op_ms(decode, gpu, p, "mlp") == op_ms(decode, gpu, neutral(), "mlp"));
    }
    SECTION("alltoall_us: each dispatch and combine of expert parallelism, apart from the all-reduce's cost") {
        const ModelSpec moe = *find_model("qwen3-30b-a3b");
        Deployment ep{moe, gpu, DType::bf16, DType::bf16, 4};
        ep.layout.ep = 4;
        ep.layout.dp_attention = 4;  // DEP4: the tokens dispatched to the experts and combined back
        const auto list = decode_operators(ep, 64, 2048);
        Profile p = neutral(), q = neutral();
        p.alltoall_latency_us = 50;
        q.allreduce_latency_us = 50;
        double count = 0;
        for (const Operator& op : list)
            if (op.kind == OperatorKind::alltoall) count = op.count;
        REQUIRE(count == 2 * moe.moe_layers());
        CHECK(op_ms(list, gpu, p, "alltoall") == Approx(op_ms(list, gpu, neutral(), "alltoall") + count * 50 / 1e3));
        CHECK(op_ms(list, gpu, q, "alltoall") == op_ms(list, gpu, neutral(), "alltoall"));
    }
}

TEST_CASE("the parameter of 0.10: a cost per routed expert a GPU runs, in each MoE layer", "[calibrate][profile]") {
    const GpuSpec gpu = *find_gpu("h100-sxm");
    const ModelSpec moe = *find_model("qwen3-30b-a3b");
    Profile p = neutral();
    p.expert_overhead_us = 20;
    // One token picks experts_per_token distinct experts in each MoE layer: each costs 20 µs there.
    const auto one = decode_operators(DeploymentRef{moe, gpu, DType::bf16, DType::bf16, 1}, 1, 1024);
    CHECK(op_ms(one, gpu, p, "experts") ==
          Approx(op_ms(one, gpu, neutral(), "experts") + moe.moe_layers() * moe.experts_per_token * 20 / 1e3));
    // A prefill of 4096 tokens picks (nearly) every expert; with ep 4 a GPU runs a quarter of them.
    Deployment ep{moe, gpu, DType::bf16, DType::bf16, 4};
    ep.layout.ep = 4;
    const auto prefill = prefill_operators(ep, 1, 4096);
    const double extra = op_ms(prefill, gpu, p, "experts") - op_ms(prefill, gpu, neutral(), "experts");
    CHECK(extra == Approx(moe.moe_layers() * moe.experts / 4 * 20 / 1e3).epsilon(0.01));
    CHECK(extra <= moe.moe_layers() * moe.experts / 4 * 20 / 1e3);
    // Only the routed experts: a dense model's step is unchanged, and so is every other operator.
    const ModelSpec dense = *find_model("llama-3.1-8b");
    std::vector<Operator> a = decode_operators(DeploymentRef{dense, gpu, DType::bf16, DType::bf16, 1}, 8, 1024), b = a;
    CHECK(estimate(a, gpu, p) == estimate(b, gpu, neutral()));
    CHECK(op_ms(one, gpu, p, "attention") == op_ms(one, gpu, neutral(), "attention"));
    // A text without it (0.8, 0.9) leaves it 0; written and read back it is the same; out of its limits, named.
    const std::string old =
        "fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.8, mfu=0.6, link=0.7, step_ms=1.2, allreduce_us=15, "
        "ep_imbalance=1.11, overlap_ep=0";
    CHECK(profile_from_text(old).expert_overhead_us == 0);
    Calibration c;
    c.base = "llama.cpp";
    c.rows = 3;
    c.profile = p;
    const std::string text = profile_text(c);
    CHECK_THAT(text, Contains("alltoall_us=0, expert_us=20, ep_imbalance=1"));
    CHECK(profile_from_text(text).expert_overhead_us == 20);
    // Without a cost per expert the text is as 0.9 wrote it (0.9 refuses a parameter it does not know).
    c.profile.expert_overhead_us = 0;
    const std::string without = profile_text(c);
    CHECK_THAT(without, !Contains("expert_us") && Contains("alltoall_us=0, ep_imbalance=1"));
    CHECK(profile_from_text(without).expert_overhead_us == 0);
    try {
        profile_from_text(old + ", expert_us=-2");
        FAIL("a negative expert_us was read");
    } catch (const Error& e) {
        CHECK_THAT(e.reason(), Contains("'expert_us'") && Contains("at least 0"));
    }
}

namespace {

/// A set parameter of 0.14 (moe_layer, sparse_gather) or 0.15 (state_compute): typical and the engines' profiles set
/// it (moe_layer and sparse_gather to 1: `one`; state_compute to measured values, tests/test_kernels.cpp), bound and
/// llama.cpp leave it 0, bound with it is bound no more, and a profile text writes it only where it is not 0 (an
/// older version refuses a parameter it does not know), reads it back, and names it when it is out of its range.
void check_set_parameter(const char* key, double Profile::*field, bool one = true) {
    INFO(key);
    for (const char* name : {"typical", "sglang", "vllm", "tensorrt-llm"})
        CHECK((one ? find_profile(name)->*field == 1 : find_profile(name)->*field > 0));
    CHECK(find_profile("llama.cpp")->*field == 0);
    CHECK(find_profile("bound")->*field == 0);
    Profile almost = *find_profile("bound");
    almost.*field = 0.5;
    CHECK_FALSE(serving::is_bound(almost));
    Calibration c;
    c.base = "typical";
    c.rows = 3;
    c.profile = neutral();
    c.profile.*field = 0.5;
    const std::string text = profile_text(c);
    CHECK_THAT(text, Contains(std::string(key) + "=0.5"));
    CHECK(profile_from_text(text).*field == 0.5);
    c.profile.*field = 0;
    const std::string without = profile_text(c);
    CHECK_THAT(without, !Contains(key));
    CHECK(profile_from_text(without).*field == 0);
    for (const char* bad : {"=-1", "=5"}) {
        try {
            profile_from_text(without + ", " + key + bad);
            FAIL(key << bad << " was read");
        } catch (const Error& e) {
            CHECK_THAT(e.reason(), Contains(std::string("'") + key + "'"));
        }
    }
}

}  // namespace

TEST_CASE("the parameter of 0.14: a MoE layer's measured fixed time, per GPU architecture", "[calibrate][profile]") {
    const ModelSpec moe = *find_model("qwen3-30b-a3b");
    Profile p = neutral();
    p.moe_layer = 1;
    // Each MoE layer's experts take the architecture's measured time (kernels.json moe_layer) more, at any batch.
    for (const char* id : {"h200", "b200"}) {
        const GpuSpec gpu = *find_gpu(id);
        const double us = moe_layer_us(gpu.architecture);
        CHECK(us > 0);
        for (const double batch : {1.0, 64.0}) {
            const auto ops = decode_operators(DeploymentRef{moe, gpu, DType::bf16, DType::bf16, 1}, batch, 1024);
            CHECK(op_ms(ops, gpu, p, "experts") == Approx(op_ms(ops, gpu, neutral(), "experts") + moe.moe_layers() * us / 1e3));
            p.moe_layer = 2;
            CHECK(op_ms(ops, gpu, p, "experts") ==
                  Approx(op_ms(ops, gpu, neutral(), "experts") + 2 * moe.moe_layers() * us / 1e3));
            p.moe_layer = 1;
        }
    }
    // A GPU of an architecture without measured kernels (AMD's CDNA) adds nothing; nor does a dense model.
    const GpuSpec mi = *find_gpu("mi300x");
    CHECK(moe_layer_us(mi.architecture) == 0);
    const auto amd = decode_operators(DeploymentRef{moe, mi, DType::bf16, DType::bf16, 1}, 8, 1024);
    CHECK(op_ms(amd, mi, p, "experts") == op_ms(amd, mi, neutral(), "experts"));
    const GpuSpec h200 = *find_gpu("h200");
    std::vector<Operator> a = decode_operators(DeploymentRef{*find_model("llama-3.1-8b"), h200, DType::bf16, DType::bf16, 1}, 8, 1024),
                          b = a;
    CHECK(estimate(a, h200, p) == estimate(b, h200, neutral()));
    // The profiles of engines whose MoE kernels were measured set it; llama.cpp (its experts launched apart) and
    // bound do not.
    CHECK(serving::is_bound(*find_profile("bound")));
    check_set_parameter("moe_layer", &Profile::moe_layer);
}

TEST_CASE("the parameter of 0.12: the network's efficiency apart from the scale-up link's", "[calibrate][profile]") {
    // A text of 0.11 (no scaleout) leaves it 0: the network at link's efficiency, as 0.11 computed.
    const std::string old =
        "fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.8, mfu=0.6, link=0.7, step_ms=1.2, allreduce_us=15, "
        "ep_imbalance=1.11, overlap_ep=0";
    CHECK(profile_from_text(old).scaleout_efficiency == 0);
    const Profile with = profile_from_text(old + ", scaleout=0.8");
    CHECK(with.scaleout_efficiency == 0.8);
    // Written back only where it is not 0 (0.11 refuses a parameter it does not know), and read the same.
    Calibration c;
    c.base = "typical";
    c.rows = 3;
    c.profile = with;
    CHECK_THAT(profile_text(c), Contains("scaleout=0.8"));
    CHECK(profile_from_text(profile_text(c)).scaleout_efficiency == 0.8);
    c.profile.scaleout_efficiency = 0;
    CHECK_THAT(profile_text(c), !Contains("scaleout"));
    try {
        profile_from_text(old + ", scaleout=1.5");
        FAIL("scaleout above 1 was read");
    } catch (const Error& e) {
        CHECK_THAT(e.reason(), Contains("'scaleout'") && Contains("at most 1"));
    }
    // The built-in profiles set it (profiles.json, DeepEP's measurement); bound keeps the ideal network.
    CHECK(find_profile("typical")->scaleout_efficiency == 0.8);
    CHECK(find_profile("sglang")->scaleout_efficiency == 0.8);
    CHECK(find_profile("bound")->scaleout_efficiency == 0);
    CHECK(serving::is_bound(*find_profile("bound")));
    Profile almost = *find_profile("bound");
    almost.scaleout_efficiency = 0.8;
    CHECK_FALSE(serving::is_bound(almost));
}

TEST_CASE("a profile's variant per GPU vendor: typical on an AMD GPU runs under its AMD fit", "[calibrate][profile]") {
    const Profile& typical = *find_profile("typical");
    REQUIRE(!typical.vendors.empty());
    const Profile& amd = typical.for_vendor("AMD");
    CHECK(&amd != &typical);
    CHECK(&typical.for_vendor("amd") == &amd);  // the catalog's vendor in any case
    CHECK(&typical.for_vendor("NVIDIA") == &typical);
    CHECK(&typical.for_vendor("") == &typical);
    const GpuSpec mi300x = *find_gpu("mi300x");
    CHECK(mi300x.vendor == "AMD");
    CHECK(find_gpu("h100-sxm")->vendor == "NVIDIA");
    const ModelSpec m = *find_model("llama-3.1-8b");
    const auto ops = decode_operators(DeploymentRef{m, mi300x, DType::bf16, DType::bf16, 1}, 8, 2048);
    Profile own = typical;  // typical's own (NVIDIA) parameters on the AMD GPU
    own.vendors.clear();
    std::vector<Operator> a = ops, b = ops, c = ops;
    const double formula_ms = formula::step_ms("llama-3.1-8b", "mi300x", 8, 2048, "bf16", "bf16", 1, "typical");
    CHECK(formula_ms == estimate(a, mi300x, amd));
    CHECK(formula_ms != estimate(b, mi300x, own));
    CHECK(estimate(c, mi300x, typical) == formula_ms);
    // A fit starts from the base's own parameters and holds for every GPU: no variant carried over.
    std::vector<CalibrationCase> rows;
    for (double batch : {1.0, 8.0, 64.0})
        rows.push_back({decode_operators(DeploymentRef{m, mi300x, DType::bf16, DType::bf16, 1}, batch, 2048), mi300x,
                        "step_ms", 10 + batch / 10, {}});
    CHECK(calibrate(rows, typical).profile.vendors.empty());
}

TEST_CASE("a profile text of 0.8 computes what it computed: the parameters 0.9 added are optional", "[calibrate][profile]") {
    const std::string old =
        "fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.8, mfu=0.6, link=0.7, step_ms=1.2, allreduce_us=15, "
        "ep_imbalance=1.11, overlap_ep=0";
    const Profile p = profile_from_text(old);
    CHECK(p.mfu_half_tokens == 0);
    CHECK(p.attention_efficiency == 1);
    CHECK(p.layer_overhead_us == 0);
    CHECK(p.alltoall_latency_us == 15);  // as every collective cost in 0.8
    // Written out and read back, every parameter of 0.9 is in the text, and the same.
    Calibration c;
    c.base = "typical";
    c.rows = 3;
    c.profile = neutral();
    c.profile.mfu_half_tokens = 123.5;
    c.profile.attention_efficiency = 0.75;
    c.profile.layer_overhead_us = 4.25;
    c.profile.alltoall_latency_us = 33;
    const std::string text = profile_text(c);
    CHECK_THAT(text, Contains("mfu_tokens=123.5") && Contains("attn=0.75") && Contains("layer_us=4.25") &&
                         Contains("alltoall_us=33"));
    const Profile back = profile_from_text(text);
    for (const FitParameter& f : kFitParameters) CHECK(back.*f.field == c.profile.*f.field);
    auto reason = [](const std::string& t) {
        try {
            profile_from_text(t);
        } catch (const Error& e) {
            return e.reason();
        }
        return std::string("no error");
    };
    CHECK_THAT(reason(old + ", attn=0"), Contains("'attn'") && Contains("above 0"));
    CHECK_THAT(reason(old + ", layer_us=-1"), Contains("'layer_us'"));
    CHECK_THAT(reason(old + ", mfu_tokens=x"), Contains("'mfu_tokens'") && Contains("not a number"));
    CHECK_THAT(reason(old + ", alltoall_us=1, alltoall_us=2"), Contains("'alltoall_us' given twice"));
}

TEST_CASE("mixed_operators: a decode step with no prompt is decode_operators'", "[calibrate][operators]") {
    const GpuSpec gpu = *find_gpu("h200");
    for (const char* id : {"llama-3.1-8b", "deepseek-v3", "nemotron-3-nano-30b-a3b"}) {
        const ModelSpec m = *find_model(id);
        const DeploymentRef d{m, gpu, DType::fp8, DType::bf16, 8};
        std::vector<Operator> mixed;
        mixed_operators(d, 16, 3000, 0, 1000, mixed);
        const auto decode = decode_operators(d, 16, 3000);
        REQUIRE(mixed.size() == decode.size());
        for (std::size_t i = 0; i < mixed.size(); ++i) {
            INFO(id << " " << decode[i].name);
            CHECK(mixed[i].name == decode[i].name);
            CHECK(mixed[i].flops == Approx(decode[i].flops));
            CHECK(mixed[i].bytes == Approx(decode[i].bytes));
            CHECK(mixed[i].link_bytes == Approx(decode[i].link_bytes));
            CHECK(mixed[i].tokens == Approx(decode[i].tokens));
        }
    }
}

TEST_CASE("a calibration fits only the parameters its rows inform, one for every two rows", "[calibrate]") {
    // Steps of Llama 3 8B on one H200 (tests/data/calibration/h200-graph.csv), as the ROOFLINE_CALIBRATE example of
    // docs/formulas.md has the first three. Issue #43: three rows fitted seven parameters exactly (mdape=0.0%).
    const auto model = find_model("llama-3-8b");
    const auto gpu = find_gpu("h200");
    REQUIRE(model);
    REQUIRE(gpu);
    auto step = [&](double batch, double ctx, double ms) {
        CalibrationCase c;
        c.ops = decode_operators(DeploymentRef(*model, *gpu, DType::bf16, DType::bf16, 1), batch, ctx);
        c.gpu = *gpu;
        c.metric = "step_ms";
        c.measured_ms = ms;
        return c;
    };
    std::vector<CalibrationCase> rows{step(1, 1024, 6.0155), step(1, 4096, 7.1348), step(8, 4096, 7.4356)};
    const Profile& typical = *find_profile("typical");
    const Calibration three = calibrate(rows, typical);
    REQUIRE(three.fitted.size() == 1);
    CHECK(three.mdape_percent > 0.1);  // fewer parameters than rows: not an exact fit
    const std::string text = profile_text(three);
    CHECK(text.rfind("fit(typical; n=3; loo=", 0) == 0);
    CHECK_THAT(text, Contains("; fitted " + three.fitted[0] + "):"));
    // The parameters not fitted keep typical's values.
    const FitMask moved = informed_parameters({&rows[0], &rows[1], &rows[2]}, typical);
    for (std::size_t k = 0; k < kFitParameterCount; ++k)
        if (!moved[k]) CHECK(three.profile.*kFitParameters[k].field == typical.*kFitParameters[k].field);
    // One more row: two parameters, and the bandwidth the rows tell does not swing.
    rows.push_back(step(16, 1024, 6.5387));
    const Calibration four = calibrate(rows, typical);
    CHECK(four.fitted.size() == 2);
    CHECK(std::abs(four.profile.bandwidth_efficiency - three.profile.bandwidth_efficiency) < 0.1);
    // Decode steps of one model at batch 1 to 16 cannot tell the compute roof apart: it keeps typical's.
    CHECK(std::find(four.fitted.begin(), four.fitted.end(), "mfu") == four.fitted.end());
    CHECK(four.profile.compute_efficiency == typical.compute_efficiency);
}

TEST_CASE("the parameter of 0.14: a sparse prefill's gather of each query's top-k entries", "[calibrate][profile]") {
    // DeepSeek-V3.2 (DSA: top 2,048 of the cached latents per query) in a prefill of 4,096 tokens on one H200: each
    // position i gathers min(i, 2048) latents of 576 values in 16 bits, in each of the 61 layers, for itself alone.
    const ModelSpec m = *find_model("deepseek-v3.2");
    const GpuSpec gpu = *find_gpu("h200");
    const DeploymentRef d{m, gpu, DType::fp8, DType::bf16, 1};
    std::vector<Operator> ops = prefill_operators(d, 1, 4096);
    const double pairs = 2048.0 * 2049 / 2 + (4096 - 2048) * 2048.0;
    const Operator* attention = nullptr;
    for (const Operator& op : ops)
        if (op.kind == OperatorKind::attention) attention = &op;
    REQUIRE(attention);
    CHECK(attention->gather_bytes == Approx(61 * pairs * 576 * 2));
    // Timed where the profile counts it: sparse_gather x the bytes at attention's memory roof; not by bound.
    Profile p = neutral();
    CHECK(timed_bytes(*attention, p) == attention->bytes);
    p.sparse_gather = 1;
    CHECK(timed_bytes(*attention, p) == attention->bytes + attention->gather_bytes);
    CHECK(op_ms(ops, gpu, p, "attention") > op_ms(ops, gpu, neutral(), "attention"));
    CHECK(op_ms(ops, gpu, p, "qkv_proj") == op_ms(ops, gpu, neutral(), "qkv_proj"));
    // No gather in a decode step (its top-k reads are its cache read), nor in a dense model's prefill.
    for (const Operator& op : decode_operators(d, 8, 4096)) CHECK(op.gather_bytes == 0);
    for (const Operator& op : prefill_operators(DeploymentRef{*find_model("deepseek-r1"), gpu, DType::fp8, DType::bf16, 8}, 1, 4096))
        CHECK(op.gather_bytes == 0);
    // The profiles: typical and the engines' on NVIDIA GPUs, not their AMD variants (no AMD DSA kernel measured), not
    // bound or llama.cpp.
    CHECK(find_profile("typical")->for_vendor("AMD").sparse_gather == 0);
    CHECK(find_profile("vllm")->for_vendor("AMD").sparse_gather == 0);
    check_set_parameter("sparse_gather", &Profile::sparse_gather);
}

TEST_CASE("the parameter of 0.15: a delta rule's recurrence at the measured kernels' rate", "[calibrate][profile]") {
    const ModelSpec m = *find_model("qwen3-next-80b-a3b");
    const GpuSpec gpu = *find_gpu("h200");
    const DeploymentRef d{m, gpu, DType::bf16, DType::bf16, 4};
    std::vector<Operator> ops = prefill_operators(d, 1, 32768);
    const Operator* state = nullptr;
    for (const Operator& op : ops)
        if (op.kind == OperatorKind::state) state = &op;
    REQUIRE(state);
    // The recurrence (and its convolution) of the 36 Gated DeltaNet layers, their value heads split over the 4 GPUs.
    CHECK(m.state.kind == StateKind::gated_deltanet);
    CHECK(state->recurrence_flops ==
          Approx(m.layers_with(Attention::state) * 32768 * m.state.flops_per_token / std::min(4.0, m.state.heads)));
    CHECK(state->recurrence_flops < state->flops);  // the projections beside it
    // Timed at state_compute of the BF16 peak where the profile sets it, the projections at the compute roof.
    Profile p = neutral();
    const double at_roof = op_ms(ops, gpu, p, "linear_attn");
    p.state_compute_efficiency = 0.03;
    const double projections = (state->flops - state->recurrence_flops) / (gpu.peak_tflops(DType::bf16) * 1e9);
    const double recurrence = state->recurrence_flops / (gpu.peak_tflops(DType::bf16) * 0.03 * 1e9);
    CHECK(op_ms(ops, gpu, p, "linear_attn") == Approx(projections + recurrence));
    CHECK(op_ms(ops, gpu, p, "linear_attn") > 2 * at_roof);  // at 32,768 tokens the recurrence is most of the layer
    CHECK(op_ms(ops, gpu, p, "qkv_proj") == op_ms(ops, gpu, neutral(), "qkv_proj"));
    // Mamba-2's scan is not measured: its state layers stay at the roof.
    const ModelSpec nemotron = *find_model("nemotron-3-nano-30b-a3b");
    for (const Operator& op : prefill_operators(DeploymentRef{nemotron, gpu, DType::bf16, DType::bf16, 1}, 1, 4096))
        CHECK(op.recurrence_flops == 0);
    check_set_parameter("state_compute", &Profile::state_compute_efficiency, false);
}

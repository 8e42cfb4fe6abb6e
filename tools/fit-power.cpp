// fit-power: fits the power model's memory shares (roofline/power.hpp), one per memory technology, on the measured
// rows of tests/data/power/measurements.csv and writes them into libroofline/catalog/power.json (committed, embedded
// into the library at build time), keeping its set parameters.
//
//   build/tools/fit-power tests/data/power/measurements.csv libroofline/catalog/power.json
//
// Each row is a decode step: `batch` sequences at `ctx` tokens of context on one GPU of `tp`, its time measured
// (step_ms) or, where the source gives none, modelled under `typical`; its power measured (watts). A memory share is
// the one number in [0.05, 1.5] (a grid of 0.001) that minimises the sum of |log(predicted / measured)| over its
// technology's rows. The errors: the median absolute percentage error of the rows, fitted, and each row left out
// (its technology's share fitted on the others). LPDDR has no row: it takes GDDR's, and says so.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "calibration_rows.hpp"
#include "measurements.hpp"
#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"
#include "roofline/power.hpp"

using namespace roofline;
using roofline::median;
using json = nlohmann::ordered_json;

namespace {

constexpr const char* kKinds[] = {"HBM", "GDDR"};  ///< the technologies with rows; LPDDR has none

struct Row {
    std::string id, kind;
    GpuSpec gpu;
    std::vector<Operator> ops;
    double step_ms = 0, watts = 0, batch = 0;
    bool modelled = false;  ///< step_ms from typical, not measured
};

Row row_of(const measurements::Row& r) {
    const auto bad = [&](const std::string& what) { return std::runtime_error(fmt::format("row {}: {}", r["id"], what)); };
    const auto model = find_model(r["model"]);
    if (!model) throw bad("unknown model '" + r["model"] + "'");
    const auto gpu = find_gpu(r["gpu"]);
    if (!gpu) throw bad("unknown gpu '" + r["gpu"] + "'");
    const bool native = r["weight_dtype"] == "native";
    const auto w = native ? std::optional<DType>(model->native_linear) : parse_dtype(r["weight_dtype"]);
    const auto kv = parse_dtype(r["kv_dtype"]);
    if (!w || !kv) throw bad("unknown weight_dtype or kv_dtype");
    Deployment d{*model, *gpu, *w, *kv, r.number("tp")};
    if (native) d.experts = model->native_experts, d.embedding = model->native_embedding;
    Row row;
    row.id = r["id"];
    row.gpu = *gpu;
    row.kind = gpu->memory_kind;
    row.batch = r.number("batch");
    row.ops = decode_operators(d, row.batch, r.number("ctx"));
    row.watts = r.number("watts");
    if (r["step_ms"].empty()) {
        row.step_ms = estimate(row.ops, *gpu, *find_profile("typical"));
        row.modelled = true;
    } else {
        row.step_ms = r.number("step_ms");
    }
    return row;
}

double predicted_w(const Row& r, PowerModel m, double active, double memory) {
    m.active = active;
    m.memory_hbm = m.memory_gddr = m.memory_lpddr = memory;
    return step_energy(r.ops, r.gpu, r.step_ms, m).watts;
}

double loss_of(const std::vector<const Row*>& rows, const PowerModel& m, double active, double memory) {
    double loss = 0;
    for (const Row* r : rows) loss += std::abs(std::log(predicted_w(*r, m, active, memory) / r->watts));
    return loss;
}

/// The fitted shares: the active one, and each technology's memory one.
struct Shares {
    double active = 0;
    std::map<std::string, double> memory;
    double predicted_w(const Row& r, const PowerModel& m) const {
        return ::predicted_w(r, m, active, memory.count(r.kind) ? memory.at(r.kind) : 0.5);
    }
};

/// The shares that minimise the sum of |log(predicted / measured)| over `rows`: `active` on a grid of 0.005 in [0, 1],
/// for each the memory share of each technology on a grid of 0.001 in [0, 1] (a technology's rows depend on its
/// share alone).
Shares fit_shares(const std::vector<const Row*>& rows, const PowerModel& m) {
    Shares best;
    double best_loss = INFINITY;
    for (int a = 0; a <= 200; ++a) {
        Shares s;
        s.active = a / 200.0;
        double loss = 0;
        for (const char* kind : kKinds) {
            std::vector<const Row*> of_kind;
            for (const Row* r : rows)
                if (r->kind == kind) of_kind.push_back(r);
            if (of_kind.empty()) continue;
            double kind_loss = INFINITY;
            for (int i = 0; i <= 1000; ++i) {
                const double l = loss_of(of_kind, m, s.active, i / 1000.0);
                if (l < kind_loss - 1e-12) kind_loss = l, s.memory[kind] = i / 1000.0;
            }
            loss += kind_loss;
        }
        if (loss < best_loss - 1e-12) best_loss = loss, best = s;
    }
    return best;
}

double one_decimal(double x) { return std::round(x * 10) / 10; }

double set_value(const json& p, const char* key) { return p.at(key).at("value").get<double>(); }

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: fit-power MEASUREMENTS.csv POWER.json\n";
        return 2;
    }
    try {
        calibration_rows::add_configs_beside({argv[1]});
        std::vector<Row> rows;
        for (const auto& r : measurements::read(argv[1])) rows.push_back(row_of(r));
        std::ifstream in(argv[2]);
        json out = json::parse(in);
        PowerModel m;
        m.compute = set_value(out, "compute");
        m.idle_fraction = set_value(out, "idle_fraction");
        m.host_fraction = set_value(out, "host_fraction");

        std::vector<const Row*> all;
        for (const Row& r : rows) all.push_back(&r);
        const Shares shares = fit_shares(all, m);
        json per_row = json::array();
        std::map<std::string, std::vector<double>> fitted, left_out;
        for (const Row& r : rows) {
            std::vector<const Row*> others;
            for (const Row& o : rows)
                if (&o != &r) others.push_back(&o);
            const double w = shares.predicted_w(r, m);
            const double w_left = fit_shares(others, m).predicted_w(r, m);
            for (const std::string& group : {r.kind, std::string("all")}) {
                fitted[group].push_back(std::abs(w / r.watts - 1) * 100);
                left_out[group].push_back(std::abs(w_left / r.watts - 1) * 100);
            }
            // Joules per output token: the GPU's power for the step over its tokens (one per sequence).
            const auto j_per_token = [&](double watts) {
                return std::round(watts * r.step_ms / 1000 / r.batch * 10000) / 10000;
            };
            per_row.push_back({{"id", r.id},
                               {"gpu", r.gpu.id},
                               {"batch", r.batch},
                               {"step_ms", std::round(r.step_ms * 1000) / 1000},
                               {"step_ms_modelled", r.modelled},
                               {"measured_w", r.watts},
                               {"predicted_w", one_decimal(w)},
                               {"predicted_w_row_left_out", one_decimal(w_left)},
                               {"measured_j_per_token", j_per_token(r.watts)},
                               {"predicted_j_per_token_row_left_out", j_per_token(w_left)}});
        }
        const auto errors = [&](const std::string& group) {
            return json{{"fitted", one_decimal(median(fitted[group]))},
                        {"rows_left_out", one_decimal(median(left_out[group]))}};
        };
        out["active"] = {{"value", shares.active}, {"source", "fitted (tools/fit-power)"}};
        json memory = json::object();
        for (const char* kind : kKinds) {
            memory[kind] = {{"value", shares.memory.at(kind)}, {"rows", fitted[kind].size()},
                            {"mdape_percent", errors(kind)}};
            fmt::print("{:<5} memory share {:.3f} on {} rows: MdAPE {:.1f}% fitted, {:.1f}% rows left out\n", kind,
                       shares.memory.at(kind), fitted[kind].size(), median(fitted[kind]), median(left_out[kind]));
        }
        fmt::print("active share {:.3f}; all {} rows: MdAPE {:.1f}% fitted, {:.1f}% rows left out\n", shares.active,
                   rows.size(), median(fitted["all"]), median(left_out["all"]));
        memory["LPDDR"] = {{"value", shares.memory.at("GDDR")},
                           {"source", "set: no measurement of an LPDDR GPU; GDDR's share (both are off-package DRAM)"}};
        out["memory"] = memory;
        out["mdape_percent"] = errors("all");
        out["rows"] = per_row;
        for (const auto& r : per_row)
            fmt::print("  {:<28} {:<14} measured {:>6.1f} W  predicted {:>6.1f} W  row left out {:>6.1f} W\n",
                       r["id"].get<std::string>(), r["gpu"].get<std::string>(), r["measured_w"].get<double>(),
                       r["predicted_w"].get<double>(), r["predicted_w_row_left_out"].get<double>());
        std::ofstream(argv[2]) << out.dump(2) << "\n";
    } catch (const std::exception& e) {
        std::cerr << "fit-power: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

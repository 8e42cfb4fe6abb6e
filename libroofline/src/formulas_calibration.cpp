// The formulas of the groups "Calibration" (ROOFLINE_CALIBRATE, ROOFLINE_CALIBRATE_ROWS: calibrate.hpp through
// the table) and "Why a formula fails" (ROOFLINE_WHY).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/defaults.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"
#include "roofline/per_thread.hpp"

#include "ascii.hpp"
#include "formula_args.hpp"
#include "formula_table.hpp"

namespace roofline::formula {

using namespace formula_table;
using namespace formula_args;
using ascii::iequals;

namespace {

using Cell = std::variant<double, std::string>;

bool empty_cell(const Cell& c) { return std::holds_alternative<std::string>(c) && std::get<std::string>(c).empty(); }

/// The measured rows of ROOFLINE_CALIBRATE's `measurements`, each as a case of the fitter. An error names the row
/// (1: the range's first) and its column.
std::vector<CalibrationCase> measured_cases(const FormulaSpec& f, std::string_view measurements,
                                            std::vector<std::size_t>& rows) {
    const ArgSpec& arg = f.args[0];
    const std::vector<std::string_view> columns = columns_of(arg.unit);
    const Table t = table_from_text(measurements);
    auto refuse = [&](std::string reason) -> Error {
        return Error::of_argument(Status::invalid_argument, f.name, arg.name, std::move(reason));
    };
    if (t.rows > defaults::calibration_rows_max)
        throw refuse(fmt::format("has {} rows: at most {}", t.rows, defaults::calibration_rows_max));
    if (t.rows > 0 && t.cols < columns.size())
        throw refuse(fmt::format("has {} column{}: it takes {}, {}", t.cols, t.cols == 1 ? "" : "s", columns.size(),
                                 arg.unit));
    std::vector<CalibrationCase> cases;
    bool first = true;
    for (std::size_t r = 0; r < t.rows; ++r) {
        const auto row = std::span<const Cell>(t.cells).subspan(r * t.cols, t.cols);
        if (std::all_of(row.begin(), row.end(), empty_cell)) continue;
        const std::size_t at = r + 1;
        // A header: the first row that is not empty, if it holds no number (a measured row has four).
        const bool header = first && std::none_of(row.begin(), row.end(), [](const Cell& c) {
                                return std::holds_alternative<double>(c);
                            });
        first = false;
        if (header) continue;
        for (std::size_t c = columns.size(); c < row.size(); ++c)
            if (!empty_cell(row[c]))
                throw refuse(fmt::format("row {}: column {} is not empty: measurements take {} columns, {}", at, c + 1,
                                         columns.size(), arg.unit));
        auto text = [&](std::size_t c) -> std::string_view {
            if (const double* d = std::get_if<double>(&row[c]))
                throw refuse(fmt::format("row {}, {}: must be a text (got {})", at, columns[c], *d));
            return std::get<std::string>(row[c]);
        };
        auto number = [&](std::size_t c, std::optional<double> if_empty = std::nullopt) -> double {
            if (const double* d = std::get_if<double>(&row[c])) return *d;
            if (empty_cell(row[c]) && if_empty) return *if_empty;
            if (empty_cell(row[c])) throw refuse(fmt::format("row {}, {}: is empty", at, columns[c]));
            throw refuse(fmt::format("row {}, {}: must be a number (got '{}')", at, columns[c],
                                     std::get<std::string>(row[c])));
        };
        const std::string_view model = text(0), gpu = text(1), weight_dtype = text(2), kv_dtype = text(3),
                               metric = text(7);
        const double tp = number(4, defaults::tp), batch = number(5), context = number(6), value = number(8);
        if (model.empty()) throw refuse(fmt::format("row {}, {}: is empty", at, columns[0]));
        if (gpu.empty()) throw refuse(fmt::format("row {}, {}: is empty", at, columns[1]));
        const bool decode = iequals(metric, "step_ms");
        if (!decode && !iequals(metric, "ttft_ms"))
            throw refuse(fmt::format("row {}, {}: '{}' is neither step_ms nor ttft_ms", at, columns[7], metric));
        if (!(value > 0) || !std::isfinite(value))
            throw refuse(fmt::format("row {}, {}: must be a time above 0 ms (got {})", at, columns[8], value));
        // The row as the formula that predicts its metric takes it, checked and resolved by that formula's rules; its
        // refusal names that formula's argument, said here as the column.
        CalibrationCase c;
        c.metric = decode ? "step_ms" : "ttft_ms";
        c.measured_ms = value;
        try {
            if (decode) {
                const auto& g = checked<&step_ms>({model, gpu, batch, context, weight_dtype, kv_dtype, tp, "", defaults::ep,
                                                    defaults::dp_attention, defaults::pp});
                const Deployed d = deployed(g, model, gpu, weight_dtype, kv_dtype, tp, {});
                decode_operators(d.ref, batch, context, c.ops);
                c.gpu = *d.gpu;
            } else {
                const auto& g = checked<&ttft_ms>({model, gpu, context, batch, weight_dtype, tp, "", defaults::ep,
                                                    defaults::dp_attention, defaults::pp});
                const Deployed d = deployed(g, model, gpu, weight_dtype, defaults::kv_dtype, tp, {});
                prefill_operators(d.ref, batch, context, c.ops);
                c.gpu = *d.gpu;
            }
        } catch (const Error& e) {
            const std::string_view a = e.argument();
            const std::string_view column = a == "ctx" || a == "prompt_tokens" ? "context" : a;
            throw Error::of_argument(e.status(), f.name, arg.name,
                                     column.empty() ? fmt::format("row {}: {}", at, e.reason())
                                                    : fmt::format("row {}, {}: {}", at, column, e.reason()));
        }
        cases.push_back(std::move(c));
        rows.push_back(at);
    }
    return cases;
}

}  // namespace

namespace {

/// The fit a thread computed last, and from what: ROOFLINE_CALIBRATE and ROOFLINE_CALIBRATE_ROWS of the same range
/// (a sheet shows both) fit once. Only successes are kept.
struct LastCalibration {
    std::string measurements, base_profile;
    std::uint64_t generation = 0;
    std::optional<Calibration> fit;
    std::vector<std::size_t> rows;  ///< each case's row in the table (1: its first)
};

/// The fit of a sheet's measured rows, for formula f (ROOFLINE_CALIBRATE or ROOFLINE_CALIBRATE_ROWS).
const LastCalibration& calibration(const FormulaSpec& f, std::string_view measurements, std::string_view base_profile) {
    LastCalibration& last = per_thread<LastCalibration, LastCalibration>();
    if (last.fit && last.measurements == measurements && last.base_profile == base_profile &&
        last.generation == catalog_generation())
        return last;
    const std::uint64_t generation = catalog_generation();
    Profile base = profile_of(f, base_profile, "base_profile");
    // A profile text as the base: the new fit is "fit(<its base>; ...)", not nested.
    if (is_profile_text(base.name)) base.name = base.name.substr(4, base.name.find(';') - 4);
    std::vector<std::size_t> rows;
    const std::vector<CalibrationCase> cases = measured_cases(f, measurements, rows);
    last.fit.reset();
    try {
        last.fit.emplace(roofline::calibrate(cases, base));
    } catch (const Error& e) {
        if (!e.where().empty()) throw;
        throw Error::of_argument(e.status(), f.name, e.argument(), e.reason());
    }
    last.measurements.assign(measurements);
    last.base_profile.assign(base_profile);
    last.generation = generation;
    last.rows = std::move(rows);
    return last;
}

}  // namespace

std::string calibrate(std::string_view measurements, std::string_view base_profile) {
    const auto& f = checked<&calibrate>({measurements, base_profile});
    return calibration(f, measurements, base_profile).fit->profile.name;
}

Table calibrate_rows(std::string_view measurements, std::string_view base_profile) {
    const auto& f = checked<&calibrate_rows>({measurements, base_profile});
    const LastCalibration& c = calibration(f, measurements, base_profile);
    const Table rows = table_from_text(measurements);
    Rows t(f);
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
        const std::size_t r = c.rows[i] - 1;
        const double measured = std::get<double>(rows.cells[r * rows.cols + 8]);
        const double predicted = c.fit->predicted_ms[i], loo = c.fit->loo_predicted_ms[i];
        t.number(static_cast<double>(c.rows[i]));
        for (std::size_t col : {0, 1, 7}) t.cell(rows.cells[r * rows.cols + col]);
        for (double v : {measured, predicted, loo, (predicted / measured - 1) * 100, (loo / measured - 1) * 100})
            t.number(v);
        t.end_row();
    }
    return std::move(t).done();
}

// ---- Why a formula fails. ------------------------------------------------------------------------

namespace {

constexpr std::pair<std::string_view, std::string_view> kIdListings[] = {
    {"model", "ROOFLINE_MODELS()"}, {"draft_model", "ROOFLINE_MODELS()"}, {"gpu", "ROOFLINE_GPUS()"},
    {"prices", "ROOFLINE_GPUS()"}};

}  // namespace

std::string why(std::string_view formula, std::span<const Arg> arguments) {
    try {
        call(formula, arguments);
        return "ok";
    } catch (const Error& e) {
        // The message without "<FORMULA>: ", and for an unknown id where the spreadsheet lists the known ones.
        std::string reason = e.what();
        if (!e.where().empty()) reason.erase(0, e.where().size() + 2);
        if (e.status() == Status::unknown_id)
            for (const auto& [argument, listing] : kIdListings)
                if (e.argument() == argument) reason += fmt::format(" (see {})", listing);
        return reason;
    }
}

}  // namespace roofline::formula

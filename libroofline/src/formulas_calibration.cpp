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
#include "roofline/nearest.hpp"
#include "roofline/per_thread.hpp"

#include "ascii.hpp"
#include "config_text.hpp"
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
/// Where a measured row came from, as ROOFLINE_CALIBRATE_ROWS shows it.
struct MeasuredRow {
    std::size_t at;                  ///< its row in the table (1: the first)
    std::string model, gpu, metric;  ///< as the row gives them (the metric in lower case)
    double measured_ms;
};

std::vector<CalibrationCase> measured_cases(const FormulaSpec& f, std::string_view measurements,
                                            std::vector<MeasuredRow>& rows) {
    const ArgSpec& arg = f.args[0];
    const std::vector<std::string_view> columns = columns_of(arg.unit);
    const Table t = table_from_text(measurements);
    auto refuse = [&](std::string reason) -> Error {
        return Error::of_argument(Status::invalid_argument, f.name, arg.name, std::move(reason));
    };
    if (t.rows > defaults::calibration_rows_max)
        throw refuse(fmt::format("has {} rows: at most {}", t.rows, defaults::calibration_rows_max));
    std::vector<CalibrationCase> cases;
    // Where each column is: by place (the formula's order), or (since 0.12) by the names of a header row that names
    // at least kNamedMin of them (a header of other words stays a header only, as 0.11 read it): in any order, other
    // columns ignored; weight_dtype, kv_dtype and tp may be absent (empty: their defaults), the other six must be
    // there.
    constexpr std::size_t kNamedMin = 3;
    // The columns a header may leave out: their empty cells take the defaults (the table in docs/formulas.md).
    constexpr std::string_view kOptional[] = {"weight_dtype", "kv_dtype", "tp"};
    std::vector<std::optional<std::size_t>> by_place(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) by_place[c] = c;
    std::vector<std::optional<std::size_t>> where = by_place;
    bool by_name = false, first = true;
    static const Cell kEmpty = std::string();
    for (std::size_t r = 0; r < t.rows; ++r) {
        const auto row = std::span<const Cell>(t.cells).subspan(r * t.cols, t.cols);
        if (std::all_of(row.begin(), row.end(), empty_cell)) continue;
        const std::size_t at = r + 1;
        // A header: a row without a number (a measured row has four), the first row that is not empty, or any row
        // that names at least kNamedMin columns (files one after another, each with its header: roofline calibrate).
        const bool no_number = std::none_of(row.begin(), row.end(), [](const Cell& c) {
            return std::holds_alternative<double>(c);
        });
        std::vector<std::optional<std::size_t>> named(columns.size());
        std::size_t names = 0;
        std::optional<std::pair<std::size_t, std::size_t>> twice;  // a column named again: it, and the cell
        if (no_number)
            for (std::size_t i = 0; i < row.size(); ++i)
                for (std::size_t c = 0; c < columns.size(); ++c)
                    if (iequals(ascii::trimmed(std::get<std::string>(row[i])), columns[c])) {
                        ++names;
                        if (!named[c]) named[c] = i;
                        else if (!twice) twice.emplace(c, i);
                    }
        const bool header = no_number && (first || names >= kNamedMin);
        first = false;
        if (header && names < kNamedMin) {  // a header of other words: the columns by place
            where = by_place;
            by_name = false;
            continue;
        }
        if (header) {
            if (twice)
                throw refuse(fmt::format("row {}: the header names '{}' twice (columns {} and {})", at,
                                         columns[twice->first], *named[twice->first] + 1, twice->second + 1));
            std::string missing, optional;
            for (std::string_view o : kOptional) optional += fmt::format("{}{}", optional.empty() ? "" : ", ", o);
            for (std::size_t c = 0; c < columns.size(); ++c)
                if (!named[c] && std::find(std::begin(kOptional), std::end(kOptional), columns[c]) == std::end(kOptional))
                    missing += fmt::format("{}'{}'", missing.empty() ? "" : ", ", columns[c]);
            if (!missing.empty())
                throw refuse(fmt::format("row {}: the header has no column {} (it names the columns by {}; {} may be "
                                         "left out)",
                                         at, missing, arg.unit, optional));
            where = named;
            by_name = true;
            continue;
        }
        if (!by_name && t.cols < columns.size())
            throw refuse(fmt::format("has {} column{}: it takes {}, {} (or a header row naming them, in any order)",
                                     t.cols, t.cols == 1 ? "" : "s", columns.size(), arg.unit));
        if (!by_name)
            for (std::size_t c = columns.size(); c < row.size(); ++c)
                if (!empty_cell(row[c]))
                    throw refuse(fmt::format("row {}: column {} is not empty: measurements take {} columns, {} (or "
                                             "a header row naming them, in any order)",
                                             at, c + 1, columns.size(), arg.unit));
        auto cell = [&](std::size_t c) -> const Cell& { return where[c] ? row[*where[c]] : kEmpty; };
        auto text = [&](std::size_t c) -> std::string_view {
            if (const double* d = std::get_if<double>(&cell(c)))
                throw refuse(fmt::format("row {}, {}: must be a text (got {})", at, columns[c], *d));
            return std::get<std::string>(cell(c));
        };
        auto number = [&](std::size_t c, std::optional<double> if_empty = std::nullopt) -> double {
            if (const double* d = std::get_if<double>(&cell(c))) return *d;
            if (empty_cell(cell(c)) && if_empty) return *if_empty;
            if (empty_cell(cell(c))) throw refuse(fmt::format("row {}, {}: is empty", at, columns[c]));
            throw refuse(fmt::format("row {}, {}: must be a number (got '{}')", at, columns[c],
                                     std::get<std::string>(cell(c))));
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
        rows.push_back({at, std::string(model), std::string(gpu), decode ? "step_ms" : "ttft_ms", value});
    }
    if (!by_name && t.rows > 0 && t.cols < columns.size())  // a table of a header only, or nothing else
        throw refuse(fmt::format("has {} column{}: it takes {}, {} (or a header row naming them, in any order)", t.cols,
                                 t.cols == 1 ? "" : "s", columns.size(), arg.unit));
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
    std::vector<MeasuredRow> rows;  ///< each case's row in the table (1: its first), model and GPU
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
    std::vector<MeasuredRow> rows;
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
    Rows t(f);
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
        const double measured = c.rows[i].measured_ms;
        const double predicted = c.fit->predicted_ms[i], loo = c.fit->loo_predicted_ms[i];
        t.number(static_cast<double>(c.rows[i].at));
        t.text(c.rows[i].model);
        t.text(c.rows[i].gpu);
        t.text(c.rows[i].metric);
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
        const auto listing_of = [](std::string_view argument) -> std::string_view {
            for (const auto& [a, listing] : kIdListings)
                if (a == argument) return listing;
            return {};
        };
        if (e.status() != Status::unknown_id) return reason;
        // Every model and GPU of the call that this machine does not know, not the first alone: a shared workbook
        // names the models and GPUs of its author's user folder, which a colleague's machine may lack.
        std::string all;
        bool first_named = false;
        if (const FormulaSpec* f = find_formula(formula))
            for (std::size_t i = 0; i < std::min(arguments.size(), f->args.size()); ++i) {
                const std::string_view name = f->args[i].name;
                const bool gpu = name == "gpu", model = name == "model" || name == "draft_model";
                const std::string* id = std::get_if<std::string>(&arguments[i].value);
                if ((!gpu && !model) || !id || ascii::trimmed(*id).empty()) continue;
                if (model && (config_text::is_config(*id) || (name == "draft_model" && iequals(*id, "mtp")))) continue;
                if (gpu ? find_gpu(*id).has_value() : find_model(*id).has_value()) continue;
                const std::vector<std::string> known = gpu ? gpu_ids() : model_ids();
                all += fmt::format("{}argument '{}': no {} '{}' in this machine's catalog or user folder{} (see {})",
                                   all.empty() ? "" : "; ", name, gpu ? "GPU" : "model", *id, suggestion(*id, known),
                                   listing_of(name));
                first_named = first_named || name == e.argument();
            }
        if (first_named) return all;
        if (const std::string_view listing = listing_of(e.argument()); !listing.empty())
            reason += fmt::format(" (see {})", listing);
        return reason;
    }
}

}  // namespace roofline::formula

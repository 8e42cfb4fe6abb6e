// The formula table's generic part: the table as the C ABI reads it, a formula by its name, signatures, a call by
// name with the table's defaults, and a table argument as a text. The table itself: formula_table.hpp.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "roofline/formulas.hpp"
#include "roofline/nearest.hpp"

#include "ascii.hpp"
#include "formula_table.hpp"

namespace roofline {

namespace formula_table {

const ArgSpec& arg_named(const FormulaSpec& f, std::string_view name) {
    for (const ArgSpec& a : f.args)
        if (name == a.name) return a;
    throw Error::of_call(Status::internal, f.name, "", fmt::format("the table lists no argument {}", name));
}

[[noreturn]] void out_of_domain(const FormulaSpec& f, const ArgSpec& a, double value, std::string_view must_be) {
    throw Error::of_argument(Status::invalid_argument, f.name, a.name,
                             fmt::format("must be {} (got {})", must_be, value));
}

[[noreturn, gnu::cold, gnu::noinline]] void refuse_number(const FormulaSpec& f, const ArgSpec& a, double v) {
    if (std::isnan(v)) out_of_domain(f, a, v, "a number");
    if (std::isinf(v)) out_of_domain(f, a, v, "finite");
    switch (a.check) {
        case Check::finite: break;
        case Check::non_negative: if (v < 0) out_of_domain(f, a, v, "zero or more"); break;
        case Check::positive: if (!(v > 0)) out_of_domain(f, a, v, "greater than zero"); break;
        case Check::count: if (v < 1 || v != std::floor(v)) out_of_domain(f, a, v, "a whole number >= 1"); break;
        case Check::fraction: if (!(v > 0) || v > 1) out_of_domain(f, a, v, "above 0 and at most 1"); break;
    }
    if (v > a.max) out_of_domain(f, a, v, fmt::format("at most {}", a.max));
    throw Error::of_call(Status::internal, f.name, a.name, "a number refused for no reason");
}

[[noreturn, gnu::cold, gnu::noinline]] void too_large(const FormulaSpec& f) {
    throw Error::of_call(Status::out_of_range, f.name, "", "the result is too large to represent");
}

}  // namespace formula_table

using formula_table::kFormulas;
using ascii::iequals;

std::span<const FormulaSpec> formulas() noexcept { return kFormulas; }

namespace {

/// A hash of a formula name that ignores the case of its letters: its length and four letters after
/// "ROOFLINE_" (cheap, and enough to tell the table's names apart).
constexpr std::size_t name_hash(std::string_view name) noexcept {
    if (name.empty()) return 0;
    auto at = [&](std::size_t i) {
        const char c = name[std::min(i, name.size() - 1)];
        return static_cast<std::uint64_t>(static_cast<unsigned char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c));
    };
    const std::uint64_t h = (name.size() * 0x9E3779B97F4A7C15ull) ^ (at(9) << 8) ^ (at(name.size() / 2) << 16) ^
                            (at(name.size() - 2) << 24) ^ (at(name.size() - 1) << 32);
    return static_cast<std::size_t>((h * 0xBF58476D1CE4E5B9ull) >> 32);
}

/// The table's rows by the hash of their names, open addressing, built at compile time.
constexpr std::size_t kNameSlots = [] {
    std::size_t n = 16;
    while (n < 4 * kFormulas.size()) n *= 2;
    return n;
}();
constexpr auto kNameIndex = [] {
    std::array<std::size_t, kNameSlots> slots{};
    for (auto& s : slots) s = kFormulas.size();  // empty
    for (std::size_t i = 0; i < kFormulas.size(); ++i) {
        std::size_t h = name_hash(kFormulas[i].name);
        while (slots[h % kNameSlots] != kFormulas.size()) ++h;
        slots[h % kNameSlots] = i;
    }
    return slots;
}();

}  // namespace

const FormulaSpec* find_formula(std::string_view name) noexcept {
    for (std::size_t h = name_hash(name);; ++h) {
        const std::size_t i = kNameIndex[h % kNameSlots];
        if (i == kFormulas.size()) return nullptr;
        if (iequals(kFormulas[i].name, name)) return &kFormulas[i];
    }
}

std::string c_function_name(std::string_view formula_name) {
    std::string s(formula_name);
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

std::vector<CFunction> c_functions(const FormulaSpec& f) {
    const std::string name = c_function_name(f.name);
    std::vector<CFunction> out{{name, f.c_arg_count()}};
    if (f.v2_args > 0 && f.v2_args < f.args.size()) out.push_back({name + "_v2", f.v2_args});
    if (f.v3_args > 0 && f.v3_args < f.args.size()) out.push_back({name + "_v3", f.v3_args});
    if (f.v4_args > 0 && f.v4_args < f.args.size()) out.push_back({name + "_v4", f.v4_args});
    if (out.back().args < f.args.size()) out.push_back({name + "_v" + std::to_string(out.size() + 1), f.args.size()});
    return out;
}

std::string default_string(const ArgSpec& arg) {
    if (!arg.optional || arg.type == Type::rest) return {};
    if (arg.type == Type::text) return arg.default_text;
    return fmt::format("{}", arg.default_number);
}

std::string signature(const FormulaSpec& formula) {
    std::vector<std::string> args;
    for (const ArgSpec& a : formula.args)
        args.push_back(a.type == Type::rest ? fmt::format("{}...", a.name)
                       : a.optional       ? fmt::format("[{}={}]", a.name, default_string(a))
                                          : std::string(a.name));
    return fmt::format("{}({})", formula.name, fmt::join(args, "; "));
}

Value call(std::string_view name, std::span<const Arg> args) {
    const FormulaSpec* f = find_formula(name);
    if (!f) {
        std::vector<std::string_view> names;
        for (const FormulaSpec& known : kFormulas) names.emplace_back(known.name);
        throw Error::of_call(Status::unknown_formula, "", "",
                             fmt::format("no formula named '{}'{}", name, suggestion(name, names)));
    }
    // A `rest` argument, always the last, takes every argument from its place on.
    const bool takes_rest = !f->args.empty() && f->args.back().type == Type::rest;
    const std::span<const ArgSpec> fixed = takes_rest ? f->args.first(f->args.size() - 1) : f->args;
    const std::size_t required = static_cast<std::size_t>(
        std::count_if(fixed.begin(), fixed.end(), [](const ArgSpec& a) { return !a.optional; }));
    if (args.size() < required || (!takes_rest && args.size() > fixed.size()))
        throw Error::of_call(Status::wrong_arity, f->name, "",
                             takes_rest                  ? fmt::format("takes at least {} argument{} (got {})", required,
                                                                       required == 1 ? "" : "s", args.size())
                             : required == fixed.size() ? fmt::format("takes {} arguments (got {})", required, args.size())
                                                         : fmt::format("takes {} to {} arguments (got {})", required,
                                                                       fixed.size(), args.size()));
    for (std::size_t i = 0; i < fixed.size() && i < args.size(); ++i) {
        const ArgSpec& a = fixed[i];
        const bool is_text = std::holds_alternative<std::string>(args[i].value);
        if (is_text != passed_as_text(a.type))
            throw Error::of_argument(Status::invalid_argument, f->name, a.name,
                                     a.type == Type::text    ? "must be a text"
                                     : a.type == Type::table ? "must be a table (a range of cells, as a text)"
                                                             : "must be a number");
    }
    // Every argument given: the formula reads them where they are.
    if (args.size() >= fixed.size()) return f->invoke(args);
    // Trailing optional arguments left out: their defaults from the table.
    struct Default {  // made where the list keeps it: no copy of its text
        const ArgSpec& a;
        operator Arg() const {  // NOLINT: implicit, for ArgList::push_back
            if (a.type == Type::text)
                return Arg{std::variant<double, std::string>(std::in_place_type<std::string>, a.default_text)};
            return Arg{a.default_number};
        }
    };
    ArgList full(fixed.size());
    for (std::size_t i = 0; i < fixed.size(); ++i) {
        if (i < args.size()) full.push_back(args[i]);
        else full.push_back(Default{fixed[i]});
    }
    return f->invoke(full.view());
}

Table table_from_text(std::string_view text) {
    Table t;
    std::vector<std::vector<std::variant<double, std::string>>> rows;
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.empty()) return t;
    for (std::string_view rest = text;;) {
        const std::size_t nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        auto& row = rows.emplace_back();
        for (std::string_view cells = line;;) {
            const std::size_t tab = cells.find('\t');
            const std::string_view cell = cells.substr(0, tab);
            double v = 0;
            const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
            if (!cell.empty() && ec == std::errc() && end == cell.data() + cell.size()) row.emplace_back(v);
            else row.emplace_back(std::string(cell));
            if (tab == std::string_view::npos) break;
            cells.remove_prefix(tab + 1);
        }
        t.cols = std::max(t.cols, row.size());
        if (nl == std::string_view::npos) break;
        rest.remove_prefix(nl + 1);
    }
    t.rows = rows.size();
    t.cells.reserve(t.rows * t.cols);
    for (auto& row : rows) {
        for (auto& cell : row) t.cells.push_back(std::move(cell));
        for (std::size_t c = row.size(); c < t.cols; ++c) t.cells.emplace_back(std::string());
    }
    return t;
}

std::string table_text(const Table& table, std::string_view argument) {
    std::string out;
    for (std::size_t r = 0; r < table.rows; ++r) {
        for (std::size_t c = 0; c < table.cols; ++c) {
            const auto& cell = table.cells[r * table.cols + c];
            if (c) out += '\t';
            if (const double* d = std::get_if<double>(&cell)) {
                out += fmt::format("{}", *d);
            } else {
                const std::string& s = std::get<std::string>(cell);
                if (s.find_first_of("\t\r\n") != std::string::npos)
                    throw Error::of_argument(Status::invalid_argument, "", std::string(argument),
                                             fmt::format("row {}, cell {}: a text with a tab or a line break", r + 1, c + 1));
                out += s;
            }
        }
        if (r + 1 < table.rows) out += '\n';
    }
    return out;
}

}  // namespace roofline

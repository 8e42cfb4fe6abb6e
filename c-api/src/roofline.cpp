// The C ABI: converts, calls the core, and turns every exception into a status. No roofline math.
#include "roofline.h"

#include <cstring>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "c_layer.hpp"
#include "roofline/catalog.hpp"
#include "roofline/formulas.hpp"
#include "roofline/nearest.hpp"
#include "roofline/per_thread.hpp"

static_assert(ROOFLINE_OK == static_cast<int>(roofline::Status::ok));
static_assert(ROOFLINE_ERROR_ARGUMENT == static_cast<int>(roofline::Status::invalid_argument));
static_assert(ROOFLINE_ERROR_NO_SOLUTION == static_cast<int>(roofline::Status::no_solution));
static_assert(ROOFLINE_ERROR_RANGE == static_cast<int>(roofline::Status::out_of_range));
static_assert(ROOFLINE_ERROR_NULL == static_cast<int>(roofline::Status::null_pointer));
static_assert(ROOFLINE_ERROR_UNKNOWN_FORMULA == static_cast<int>(roofline::Status::unknown_formula));
static_assert(ROOFLINE_ERROR_ARITY == static_cast<int>(roofline::Status::wrong_arity));
static_assert(ROOFLINE_ERROR_NOMEM == static_cast<int>(roofline::Status::out_of_memory));
static_assert(ROOFLINE_ERROR_INTERNAL == static_cast<int>(roofline::Status::internal));
static_assert(ROOFLINE_ERROR_UNKNOWN_ID == static_cast<int>(roofline::Status::unknown_id));
static_assert(ROOFLINE_TYPE_NUMBER == static_cast<int>(roofline::Type::number));
static_assert(ROOFLINE_TYPE_TEXT == static_cast<int>(roofline::Type::text));
static_assert(ROOFLINE_TYPE_ARRAY == static_cast<int>(roofline::Type::array));
static_assert(ROOFLINE_TYPE_REST == static_cast<int>(roofline::Type::rest));
static_assert(ROOFLINE_TYPE_TABLE == static_cast<int>(roofline::Type::table));

namespace roofline::c_layer {

namespace {
// The only state of the library: each thread's last error...
struct LastError {
    std::string message, argument, detail;
};
LastError& t_error() { return per_thread<LastError, LastError>(); }
// ... whether it holds one (a plain bool: a success reads this alone, not the strings; trivial, so a
// thread_local everywhere) ...
thread_local bool t_failed = false;
// ... and the text its last call computed (roofline_why()).
struct ComputedText;
std::string& t_computed_text() { return per_thread<ComputedText, std::string>(); }
}  // namespace

int fail(Status status, const char* message, const char* argument, const char* reason) noexcept {
    t_failed = true;
    try {
        LastError& e = t_error();
        e.message = message;
        e.argument = argument;
        e.detail = reason;
    } catch (...) {
        t_error() = LastError{};
    }
    return static_cast<int>(status);
}

int fail(const Error& e) noexcept { return fail(e.status(), e.what(), e.argument().c_str(), e.reason().c_str()); }

void clear_error() noexcept {
    if (!t_failed) return;  // the strings are empty already
    LastError& e = t_error();
    e.message.clear();
    e.argument.clear();
    e.detail.clear();
    t_failed = false;
}

int null_argument(const char* where, const char* argument) noexcept {
    try {
        return fail(Error::of_argument(Status::null_pointer, where, argument, "is NULL"));
    } catch (...) {
        return fail(Status::out_of_memory, "out of memory", "", "out of memory");
    }
}

int null_text(const char* formula, std::initializer_list<std::pair<const char*, const char*>> texts) noexcept {
    for (const auto& [name, value] : texts)
        if (!value) return null_argument(formula, name);
    return ROOFLINE_OK;
}

std::vector<Arg> core_args(const roofline_value* args, size_t nargs) {
    std::vector<Arg> in;
    in.reserve(nargs);
    for (size_t i = 0; i < nargs; ++i) {
        if (args[i].text) in.push_back({std::string(args[i].text)});
        else in.push_back({args[i].number});
    }
    return in;
}

roofline_array* new_array(Table table) { return new roofline_array{std::move(table), 0.0, false}; }

roofline_array* new_array(Value value) {
    if (auto* t = std::get_if<Table>(&value.value)) return new_array(std::move(*t));
    auto* a = new roofline_array{{}, 0.0, true};
    if (auto* d = std::get_if<double>(&value.value)) a->scalar = *d;
    else a->scalar = std::move(std::get<std::string>(value.value));
    return a;
}

namespace {

/// The arguments of a call by name as the core takes them, on the stack when they are few: a call
/// allocates nothing for them (a text of up to 15 bytes included).
template <typename Fn> decltype(auto) with_core_args(const roofline_value* args, size_t nargs, Fn&& fn) {
    // Each argument made where the list keeps it (a conversion's result is not copied, nor its text).
    struct Converted {
        const roofline_value& value;
        operator Arg() const {  // NOLINT: implicit, for ArgList::push_back
            if (value.text) return Arg{std::variant<double, std::string>(std::in_place_type<std::string>, value.text)};
            return Arg{value.number};
        }
    };
    ArgList in(nargs);
    for (size_t i = 0; i < nargs; ++i) in.push_back(Converted{args[i]});
    return fn(in.view());
}

}  // namespace

const char* c_result(std::string&& computed_text) {
    std::string& text = t_computed_text();
    text = std::move(computed_text);
    return text.c_str();
}

}  // namespace roofline::c_layer

using namespace roofline::c_layer;

namespace {

const std::variant<double, std::string>* cell(const roofline_array* a, size_t row, size_t col) noexcept {
    if (!a) return nullptr;
    if (a->is_scalar) return row == 0 && col == 0 ? &a->scalar : nullptr;
    if (row >= a->table.rows || col >= a->table.cols) return nullptr;
    return &a->table.cells[row * a->table.cols + col];
}

/// The formula table seen through C structs: built once, then read-only.
struct CTable {
    std::vector<std::string> c_names;
    std::vector<std::string> c_names_all;  ///< the typed function of all the arguments (c_name + "_v2", "_v3" where it grew)
    std::vector<std::vector<roofline_arg_info>> args;
    std::vector<std::vector<const roofline_arg_info*>> arg_pointers;
    std::vector<roofline_formula_info> formulas;
    // The formatter's texts, by the address of the struct they describe.
    std::unordered_map<const roofline_arg_info*, std::string> default_strings;
    std::unordered_map<const roofline_formula_info*, std::string> signatures;

    CTable() {
        const auto table = roofline::formulas();
        c_names.reserve(table.size());
        c_names_all.reserve(table.size());
        args.reserve(table.size());
        arg_pointers.reserve(table.size());
        for (const roofline::FormulaSpec& f : table) {
            c_names.push_back(roofline::c_function_name(f.name));
            c_names_all.push_back(roofline::c_functions(f).back().name);
            std::vector<roofline_arg_info>& a = args.emplace_back();
            for (const roofline::ArgSpec& s : f.args)
                a.push_back({s.name, s.unit, static_cast<int>(s.type), s.optional ? 1 : 0,
                             s.optional ? s.default_number : 0.0, s.default_text, s.description_en,
                             s.description_zh, nullptr});
        }
        for (std::size_t i = 0; i < table.size(); ++i) {
            auto& pointers = arg_pointers.emplace_back();
            for (const roofline_arg_info& a : args[i]) pointers.push_back(&a);
        }
        for (std::size_t i = 0; i < table.size(); ++i) {
            const roofline::FormulaSpec& f = table[i];
            formulas.push_back({f.name, c_names[i].c_str(), f.group, static_cast<int>(f.result), f.result_unit,
                                f.description_en, f.description_zh, args[i].size(), arg_pointers[i].data(), f.example,
                                f.c_arg_count(), c_names_all[i].c_str()});
            for (std::size_t k = 0; k < f.args.size(); ++k)
                default_strings.emplace(&args[i][k], roofline::default_string(f.args[k]));
        }
        for (std::size_t i = 0; i < table.size(); ++i) signatures.emplace(&formulas[i], roofline::signature(table[i]));
    }
};

const CTable* c_table() noexcept {
    try {
        static const CTable table;
        return &table;
    } catch (...) {
        return nullptr;
    }
}

}  // namespace

extern "C" {

const char* roofline_version(void) { return ROOFLINE_VERSION_STRING; }
int roofline_version_number(void) { return ROOFLINE_VERSION_NUMBER; }

const char* roofline_status_string(int status) {
    switch (status) {
        case ROOFLINE_OK: return "ROOFLINE_OK";
        case ROOFLINE_ERROR_ARGUMENT: return "ROOFLINE_ERROR_ARGUMENT";
        case ROOFLINE_ERROR_NO_SOLUTION: return "ROOFLINE_ERROR_NO_SOLUTION";
        case ROOFLINE_ERROR_RANGE: return "ROOFLINE_ERROR_RANGE";
        case ROOFLINE_ERROR_NULL: return "ROOFLINE_ERROR_NULL";
        case ROOFLINE_ERROR_UNKNOWN_FORMULA: return "ROOFLINE_ERROR_UNKNOWN_FORMULA";
        case ROOFLINE_ERROR_ARITY: return "ROOFLINE_ERROR_ARITY";
        case ROOFLINE_ERROR_NOMEM: return "ROOFLINE_ERROR_NOMEM";
        case ROOFLINE_ERROR_INTERNAL: return "ROOFLINE_ERROR_INTERNAL";
        case ROOFLINE_ERROR_UNKNOWN_ID: return "ROOFLINE_ERROR_UNKNOWN_ID";
        default: return "ROOFLINE_ERROR_UNKNOWN";
    }
}

const char* roofline_errmsg(void) { return roofline::c_layer::t_error().message.c_str(); }
const char* roofline_errarg(void) { return roofline::c_layer::t_error().argument.c_str(); }
const char* roofline_errdetail(void) { return roofline::c_layer::t_error().detail.c_str(); }

long roofline_nearest(const char* word, const char* const* candidates, size_t count) {
    if (!word || !candidates) return -1;
    try {
        std::vector<std::string_view> names;
        names.reserve(count);
        // A NULL candidate matches nothing, and keeps the indices of the others.
        for (size_t i = 0; i < count; ++i) names.emplace_back(candidates[i] ? candidates[i] : "");
        const auto i = roofline::nearest(word, std::span<const std::string_view>(names));
        return i && candidates[*i] ? static_cast<long>(*i) : -1;
    } catch (...) {
        return -1;
    }
}

// ---- Arrays ----

size_t roofline_array_rows(const roofline_array* array) { return array ? array->is_scalar ? 1 : array->table.rows : 0; }
size_t roofline_array_cols(const roofline_array* array) { return array ? array->is_scalar ? 1 : array->table.cols : 0; }

int roofline_array_is_text(const roofline_array* array, size_t row, size_t col) {
    const auto* c = cell(array, row, col);
    return c && std::holds_alternative<std::string>(*c) ? 1 : 0;
}

double roofline_array_number(const roofline_array* array, size_t row, size_t col) {
    const auto* c = cell(array, row, col);
    const double* d = c ? std::get_if<double>(c) : nullptr;
    return d ? *d : 0.0;
}

const char* roofline_array_text(const roofline_array* array, size_t row, size_t col) {
    const auto* c = cell(array, row, col);
    const std::string* s = c ? std::get_if<std::string>(c) : nullptr;
    return s ? s->c_str() : nullptr;
}

void roofline_array_free(roofline_array* array) { delete array; }

// ---- The formula table ----

size_t roofline_formula_count(void) {
    const CTable* t = c_table();
    return t ? t->formulas.size() : 0;
}

const roofline_formula_info* roofline_formula_at(size_t index) {
    const CTable* t = c_table();
    return t && index < t->formulas.size() ? &t->formulas[index] : nullptr;
}

const roofline_formula_info* roofline_formula_find(const char* name) {
    const CTable* t = c_table();
    if (!t || !name) return nullptr;
    const roofline::FormulaSpec* f = roofline::find_formula(name);
    if (!f) return nullptr;
    return &t->formulas[static_cast<std::size_t>(f - roofline::formulas().data())];
}

const char* roofline_arg_default_string(const roofline_arg_info* arg) {
    const CTable* t = c_table();
    if (!t || !arg) return "";
    const auto it = t->default_strings.find(arg);
    return it == t->default_strings.end() ? "" : it->second.c_str();
}

const char* roofline_formula_signature(const roofline_formula_info* formula) {
    const CTable* t = c_table();
    if (!t || !formula) return "";
    const auto it = t->signatures.find(formula);
    return it == t->signatures.end() ? "" : it->second.c_str();
}

int roofline_call(const char* name, const roofline_value* args, size_t nargs, roofline_array** result) {
    if (!name) return null_argument("roofline_call", "name");
    if (!args && nargs > 0) return null_argument("roofline_call", "args");
    return compute(name, result, [&] {
        return with_core_args(args, nargs, [&](std::span<const roofline::Arg> in) { return new_array(roofline::call(name, in)); });
    });
}

// The typed C function of each formula (roofline_compute_ms() ...) is generated from the table by
// `roofline-codegen c-functions` into the build tree (formula_functions.cpp).

// ---- Extending the catalog ----

int roofline_model_import_hf_config(const char* id, const char* config_json) {
    if (int st = null_text("roofline_model_import_hf_config", {{"id", id}, {"config_json", config_json}})) return st;
    return guard([&] { roofline::add_model_from_hf_config(id, config_json); });
}

int roofline_model_import_hf_checkpoint(const char* id, const char* config_json, const char* hf_quant_config_json) {
    if (int st = null_text("roofline_model_import_hf_checkpoint", {{"id", id}, {"config_json", config_json}})) return st;
    return guard([&] {
        roofline::add_model_from_hf_config(id, config_json, hf_quant_config_json ? hf_quant_config_json : "");
    });
}

int roofline_catalog_add_json(const char* catalog_json, size_t* added) {
    if (int st = null_text("roofline_catalog_add_json", {{"catalog_json", catalog_json}})) return st;
    return guard([&] {
        const size_t n = add_catalog_text(catalog_json);
        if (added) *added = n;
    });
}

}  // extern "C"

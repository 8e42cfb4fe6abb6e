// The C ABI: converts, calls the core, and turns every exception into a status. No roofline math.
#include "roofline.h"

#include <cstring>
#include <new>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/formulas.hpp"
#include "roofline/nearest.hpp"

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

struct roofline_array {
    roofline::Table table;
};

namespace {

// The only state of the library: each thread's last error.
thread_local std::string t_errmsg;
thread_local std::string t_errarg;
thread_local std::string t_errdetail;
// ... and the text of this thread's last roofline_why().
thread_local std::string t_why;

/// Records this thread's error: the whole message, the argument at fault, and the reason alone.
int fail(roofline::Status status, const char* message, const char* argument, const char* reason) noexcept {
    try {
        t_errmsg = message;
        t_errarg = argument;
        t_errdetail = reason;
    } catch (...) {
        t_errmsg.clear();
        t_errarg.clear();
        t_errdetail.clear();
    }
    return static_cast<int>(status);
}

int fail(const roofline::Error& e) noexcept {
    return fail(e.status(), e.what(), e.argument().c_str(), e.reason().c_str());
}

/// Refuses a NULL pointer argument of a C function (`where`: the formula, or the C function).
int null_argument(const char* where, const char* argument) noexcept {
    try {
        return fail(roofline::Error::of_argument(roofline::Status::null_pointer, where, argument, "is NULL"));
    } catch (...) {
        return fail(roofline::Status::out_of_memory, "out of memory", "", "out of memory");
    }
}

/// Runs `fn`, which writes the result; maps every exception to a status and the thread's error.
template <typename Fn> int guard(Fn&& fn) noexcept {
    try {
        fn();
        t_errmsg.clear();
        t_errarg.clear();
        t_errdetail.clear();
        return ROOFLINE_OK;
    } catch (const roofline::Error& e) {
        return fail(e);
    } catch (const std::bad_alloc&) {
        return fail(roofline::Status::out_of_memory, "out of memory", "", "out of memory");
    } catch (const std::exception& e) {
        return fail(roofline::Status::internal, e.what(), "", e.what());
    } catch (...) {
        return fail(roofline::Status::internal, "unknown internal error", "", "unknown internal error");
    }
}

/// A formula call: checks the out-parameter, then computes into it.
template <typename T, typename Fn> int compute(const char* formula, T* result, Fn&& fn) noexcept {
    if (!result) return null_argument(formula, "result");
    return guard([&] { *result = fn(); });
}

roofline_array* new_array(roofline::Table table) { return new roofline_array{std::move(table)}; }

roofline::Table as_table(roofline::Value value) {
    if (auto* t = std::get_if<roofline::Table>(&value.value)) return std::move(*t);
    roofline::Table t;
    t.rows = t.cols = 1;
    if (auto* d = std::get_if<double>(&value.value)) t.cells.emplace_back(*d);
    else t.cells.emplace_back(std::move(std::get<std::string>(value.value)));
    return t;
}

/// The arguments of a call by name, as the core takes them.
std::vector<roofline::Arg> core_args(const roofline_value* args, size_t nargs) {
    std::vector<roofline::Arg> in;
    in.reserve(nargs);
    for (size_t i = 0; i < nargs; ++i) {
        if (args[i].text) in.push_back({std::string(args[i].text)});
        else in.push_back({args[i].number});
    }
    return in;
}

const std::variant<double, std::string>* cell(const roofline_array* a, size_t row, size_t col) noexcept {
    if (!a || row >= a->table.rows || col >= a->table.cols) return nullptr;
    return &a->table.cells[row * a->table.cols + col];
}

/// The formula table seen through C structs: built once, then read-only.
struct CTable {
    std::vector<std::string> c_names;
    std::vector<std::vector<roofline_arg_info>> args;
    std::vector<std::vector<const roofline_arg_info*>> arg_pointers;
    std::vector<roofline_formula_info> formulas;
    // The formatter's texts, by the address of the struct they describe.
    std::unordered_map<const roofline_arg_info*, std::string> default_strings;
    std::unordered_map<const roofline_formula_info*, std::string> signatures;

    CTable() {
        const auto table = roofline::formulas();
        c_names.reserve(table.size());
        args.reserve(table.size());
        arg_pointers.reserve(table.size());
        for (const roofline::FormulaSpec& f : table) {
            c_names.push_back(roofline::c_function_name(f.name));
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
                                f.description_en, f.description_zh, args[i].size(), arg_pointers[i].data(), f.example});
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

const char* roofline_errmsg(void) { return t_errmsg.c_str(); }
const char* roofline_errarg(void) { return t_errarg.c_str(); }
const char* roofline_errdetail(void) { return t_errdetail.c_str(); }

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

size_t roofline_array_rows(const roofline_array* array) { return array ? array->table.rows : 0; }
size_t roofline_array_cols(const roofline_array* array) { return array ? array->table.cols : 0; }

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
    return compute(name, result, [&] { return new_array(as_table(roofline::call(name, core_args(args, nargs)))); });
}

// ---- Roofline primitives ----

int roofline_compute_ms(double flops, double tflops, double* result) {
    return compute("ROOFLINE_COMPUTE_MS", result, [&] { return roofline::formula::compute_ms(flops, tflops); });
}

int roofline_memory_ms(double bytes, double tbs, double* result) {
    return compute("ROOFLINE_MEMORY_MS", result, [&] { return roofline::formula::memory_ms(bytes, tbs); });
}

int roofline_time_ms(double flops, double bytes, double tflops, double tbs, double* result) {
    return compute("ROOFLINE_TIME_MS", result, [&] { return roofline::formula::time_ms(flops, bytes, tflops, tbs); });
}

int roofline_ai(double flops, double bytes, double* result) {
    return compute("ROOFLINE_AI", result, [&] { return roofline::formula::ai(flops, bytes); });
}

int roofline_balance(double tflops, double tbs, double* result) {
    return compute("ROOFLINE_BALANCE", result, [&] { return roofline::formula::balance(tflops, tbs); });
}

int roofline_attainable_tflops(double ai, double tflops, double tbs, double* result) {
    return compute("ROOFLINE_ATTAINABLE_TFLOPS", result,
                   [&] { return roofline::formula::attainable_tflops(ai, tflops, tbs); });
}

int roofline_bound(double flops, double bytes, double tflops, double tbs, const char** result) {
    // The core returns a view of a static literal: it outlives the call.
    return compute("ROOFLINE_BOUND", result,
                   [&] { return roofline::formula::bound(flops, bytes, tflops, tbs).data(); });
}

int roofline_roof(double tflops, double tbs, double ai_min, double ai_max, double points, roofline_array** result) {
    return compute("ROOFLINE_ROOF", result,
                   [&] { return new_array(roofline::formula::roof(tflops, tbs, ai_min, ai_max, points)); });
}

// ---- Dense model from its parameter count ----

int roofline_decode_ms(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                       double kv_kib_per_token, double bytes_per_param, double* result) {
    return compute("ROOFLINE_DECODE_MS", result, [&] {
        return roofline::formula::decode_ms(params_b, batch, ctx, bw_tbs, tflops, kv_kib_per_token, bytes_per_param);
    });
}

int roofline_decode_toks(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                         double kv_kib_per_token, double bytes_per_param, double* result) {
    return compute("ROOFLINE_DECODE_TOKS", result, [&] {
        return roofline::formula::decode_toks(params_b, batch, ctx, bw_tbs, tflops, kv_kib_per_token, bytes_per_param);
    });
}

int roofline_decode_ai(double params_b, double batch, double ctx, double kv_kib_per_token, double bytes_per_param,
                       double* result) {
    return compute("ROOFLINE_DECODE_AI", result, [&] {
        return roofline::formula::decode_ai(params_b, batch, ctx, kv_kib_per_token, bytes_per_param);
    });
}

int roofline_decode_flop(double params_b, double batch, double* result) {
    return compute("ROOFLINE_DECODE_FLOP", result, [&] { return roofline::formula::decode_flop(params_b, batch); });
}

int roofline_decode_bytes(double params_b, double batch, double ctx, double kv_kib_per_token, double bytes_per_param,
                          double* result) {
    return compute("ROOFLINE_DECODE_BYTES", result, [&] {
        return roofline::formula::decode_bytes(params_b, batch, ctx, kv_kib_per_token, bytes_per_param);
    });
}

int roofline_critical_batch(double params_b, double ctx, double tflops, double bw_tbs, double kv_kib_per_token,
                            double bytes_per_param, double* result) {
    return compute("ROOFLINE_CRITICAL_BATCH", result, [&] {
        return roofline::formula::critical_batch(params_b, ctx, tflops, bw_tbs, kv_kib_per_token, bytes_per_param);
    });
}

int roofline_prefill_ms(double params_b, double tokens, double tflops, double bw_tbs, double bytes_per_param,
                        double* result) {
    return compute("ROOFLINE_PREFILL_MS", result, [&] {
        return roofline::formula::prefill_ms(params_b, tokens, tflops, bw_tbs, bytes_per_param);
    });
}

int roofline_weights_gb(double params_b, double bytes_per_param, double* result) {
    return compute("ROOFLINE_WEIGHTS_GB", result, [&] { return roofline::formula::weights_gb(params_b, bytes_per_param); });
}

int roofline_kv_gb(double batch, double ctx, double kv_kib_per_token, double* result) {
    return compute("ROOFLINE_KV_GB", result, [&] { return roofline::formula::kv_gb(batch, ctx, kv_kib_per_token); });
}

int roofline_max_batch(double mem_gb, double params_b, double ctx, double kv_kib_per_token, double bytes_per_param,
                       double reserve_gb, double* result) {
    return compute("ROOFLINE_MAX_BATCH", result, [&] {
        return roofline::formula::max_batch(mem_gb, params_b, ctx, kv_kib_per_token, bytes_per_param, reserve_gb);
    });
}

// ---- Catalog and model-aware estimates ----

}  // extern "C"

namespace {

/// Refuses NULL text arguments, naming the first that is NULL.
int null_text(const char* formula, std::initializer_list<std::pair<const char*, const char*>> texts) noexcept {
    for (const auto& [name, value] : texts)
        if (!value) return null_argument(formula, name);
    return ROOFLINE_OK;
}

}  // namespace

extern "C" {

int roofline_gpus(roofline_array** result) {
    return compute("ROOFLINE_GPUS", result, [&] { return new_array(roofline::formula::gpus()); });
}

int roofline_models(roofline_array** result) {
    return compute("ROOFLINE_MODELS", result, [&] { return new_array(roofline::formula::models()); });
}

int roofline_gpu(const char* gpu, const char* field, double* result) {
    if (int st = null_text("ROOFLINE_GPU", {{"gpu", gpu}, {"field", field}})) return st;
    return compute("ROOFLINE_GPU", result, [&] { return roofline::formula::gpu(gpu, field); });
}

int roofline_model(const char* model, const char* field, double* result) {
    if (int st = null_text("ROOFLINE_MODEL", {{"model", model}, {"field", field}})) return st;
    return compute("ROOFLINE_MODEL", result, [&] { return roofline::formula::model(model, field); });
}

int roofline_step_ms(const char* model, const char* gpu, double batch, double ctx, const char* weight_dtype,
                     const char* kv_dtype, double tp, const char* profile, double* result) {
    if (int st = null_text("ROOFLINE_STEP_MS", {{"model", model}, {"gpu", gpu}, {"weight_dtype", weight_dtype},
                                                {"kv_dtype", kv_dtype}, {"profile", profile}}))
        return st;
    return compute("ROOFLINE_STEP_MS", result, [&] {
        return roofline::formula::step_ms(model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile);
    });
}

int roofline_step_toks(const char* model, const char* gpu, double batch, double ctx, const char* weight_dtype,
                       const char* kv_dtype, double tp, const char* profile, double* result) {
    if (int st = null_text("ROOFLINE_STEP_TOKS", {{"model", model}, {"gpu", gpu}, {"weight_dtype", weight_dtype},
                                                  {"kv_dtype", kv_dtype}, {"profile", profile}}))
        return st;
    return compute("ROOFLINE_STEP_TOKS", result, [&] {
        return roofline::formula::step_toks(model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile);
    });
}

int roofline_ttft_ms(const char* model, const char* gpu, double prompt_tokens, double batch, const char* weight_dtype,
                     double tp, const char* profile, double* result) {
    if (int st = null_text("ROOFLINE_TTFT_MS",
                           {{"model", model}, {"gpu", gpu}, {"weight_dtype", weight_dtype}, {"profile", profile}}))
        return st;
    return compute("ROOFLINE_TTFT_MS", result, [&] {
        return roofline::formula::ttft_ms(model, gpu, prompt_tokens, batch, weight_dtype, tp, profile);
    });
}

int roofline_fit_batch(const char* model, const char* gpu, double ctx, const char* weight_dtype, const char* kv_dtype,
                       double tp, double mem_util, double* result) {
    if (int st = null_text("ROOFLINE_FIT_BATCH",
                           {{"model", model}, {"gpu", gpu}, {"weight_dtype", weight_dtype}, {"kv_dtype", kv_dtype}}))
        return st;
    return compute("ROOFLINE_FIT_BATCH", result, [&] {
        return roofline::formula::fit_batch(model, gpu, ctx, weight_dtype, kv_dtype, tp, mem_util);
    });
}

int roofline_step_breakdown(const char* model, const char* gpu, double batch, double ctx, const char* weight_dtype,
                            const char* kv_dtype, double tp, const char* profile, roofline_array** result) {
    if (int st = null_text("ROOFLINE_STEP_BREAKDOWN", {{"model", model}, {"gpu", gpu}, {"weight_dtype", weight_dtype},
                                                       {"kv_dtype", kv_dtype}, {"profile", profile}}))
        return st;
    return compute("ROOFLINE_STEP_BREAKDOWN", result, [&] {
        return new_array(roofline::formula::step_breakdown(model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile));
    });
}

int roofline_ttft_breakdown(const char* model, const char* gpu, double prompt_tokens, double batch,
                            const char* weight_dtype, double tp, const char* profile, roofline_array** result) {
    if (int st = null_text("ROOFLINE_TTFT_BREAKDOWN",
                           {{"model", model}, {"gpu", gpu}, {"weight_dtype", weight_dtype}, {"profile", profile}}))
        return st;
    return compute("ROOFLINE_TTFT_BREAKDOWN", result, [&] {
        return new_array(roofline::formula::ttft_breakdown(model, gpu, prompt_tokens, batch, weight_dtype, tp, profile));
    });
}

// ---- Why a formula fails ----

int roofline_why(const char* formula, const roofline_value* args, size_t nargs, const char** result) {
    if (int st = null_text("ROOFLINE_WHY", {{"formula", formula}})) return st;
    if (!args && nargs > 0) return null_argument("ROOFLINE_WHY", "arguments");
    return compute("ROOFLINE_WHY", result, [&] {
        t_why = roofline::formula::why(formula, core_args(args, nargs));
        return t_why.c_str();
    });
}

int roofline_model_import_hf_config(const char* id, const char* config_json) {
    if (int st = null_text("roofline_model_import_hf_config", {{"id", id}, {"config_json", config_json}})) return st;
    return guard([&] { roofline::add_model_from_hf_config(id, config_json); });
}

int roofline_catalog_add_json(const char* catalog_json, size_t* added) {
    if (int st = null_text("roofline_catalog_add_json", {{"catalog_json", catalog_json}})) return st;
    return guard([&] {
        const size_t n = roofline::add_catalog(catalog_json);
        if (added) *added = n;
    });
}

}  // extern "C"

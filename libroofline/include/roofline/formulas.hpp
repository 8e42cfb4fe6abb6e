// The formula layer: one function per spreadsheet formula of docs/formulas.md, and the one table that
// describes them all (name, arguments, units, defaults, checks, descriptions in English and
// Chinese). Every host (the C ABI, and through it the Calc add-in, the CLI and Python) reads the
// table; the Function Wizard texts and the README's formula reference are generated from it.
//
// Each formula function checks its arguments against the table, computes with the concept layer
// (roofline.hpp, dense.hpp) and checks that its result is finite. It throws roofline::Error.
#pragma once

#include <cstddef>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "roofline/defaults.hpp"
#include "roofline/error.hpp"

namespace roofline {

/// How an argument is checked. Every check also rejects NaN and infinity.
enum class Check {
    finite,        ///< any finite number
    non_negative,  ///< >= 0
    positive,      ///< > 0
    count,         ///< a whole number >= 1
    fraction,      ///< > 0 and <= 1
};

/// Types of arguments and results. `rest` (arguments only, and only the last): any number of further
/// arguments, each a number or a text (ROOFLINE_WHY's arguments of the formula it explains). `table`
/// (arguments only, since 0.8): a range of cells, passed as one text (table_from_text(): rows separated by
/// '\n', cells by '\t'); its unit lists its columns ("model, gpu, ...", as an array result's does).
enum class Type { number, text, array, rest, table };

/// Whether an argument of this type arrives as a text (a text, or a table written as one).
constexpr bool passed_as_text(Type t) noexcept { return t == Type::text || t == Type::table; }

/// One argument of a formula.
struct ArgSpec {
    const char* name;            ///< as in docs/formulas.md: "params_b"
    const char* unit;            ///< "billions", "TB/s", ... ("" for pure numbers)
    Type type;                   ///< number or text
    Check check;                 ///< domain of a number
    bool optional;               ///< has a default
    double default_number;       ///< the default of an optional number
    const char* default_text;    ///< the default of an optional text, else nullptr
    double max;                  ///< upper limit of a number (inclusive); infinity when none
    const char* description_en;
    const char* description_zh;
};

struct Value;
struct Arg;

/// One formula.
struct FormulaSpec {
    const char* name;            ///< "ROOFLINE_DECODE_MS"
    const char* group;           ///< the docs/formulas.md section, e.g. "Roofline primitives"
    Type result;                 ///< number, text or array
    const char* result_unit;     ///< "ms", "FLOP/byte", ...
    const char* description_en;
    const char* description_zh;
    std::span<const ArgSpec> args;
    Value (*invoke)(std::span<const Arg> args);  ///< all arguments present, of the right type
    const char* example;         ///< a call with the article's numbers, e.g. "ROOFLINE_DECODE_MS(8; 64; 4096; 3.35)"
    /// Arguments that the formula's typed C function takes, the first ones (0: all of them). A formula that
    /// gained arguments after its typed function was released keeps that function with the arguments it had
    /// (roofline.h's growth rules) and gets a second one, its name + "_v2", that takes all of them (c_functions()).
    std::size_t released_args = 0;
    /// Where the formula grew again after its _v2 function was released: the arguments _v2 takes (the first ones);
    /// then a _v3 takes all of them. 0: _v2 (where there is one) takes all.
    std::size_t v2_args = 0;
    /// Where it grew a third time after its _v3 was released: the arguments _v3 takes; then a _v4 takes all of them.
    std::size_t v3_args = 0;
    /// Where it grew a fourth time after its _v4 was released: the arguments _v4 takes; then a _v5 takes all of them.
    std::size_t v4_args = 0;
    /// The arguments of the typed C function named c_function_name().
    std::size_t c_arg_count() const noexcept { return released_args ? released_args : args.size(); }
};

/// A typed C function of a formula: its name and how many of the formula's arguments it takes, the first ones.
struct CFunction {
    std::string name;
    std::size_t args;
};
/// The typed C functions of a formula, the first released first: c_function_name() with c_arg_count() arguments,
/// then, where the formula grew, its name + "_v2" (v2_args of them, or all), and + "_v3" with all of them where it
/// grew twice (roofline.h, HOW THE ABI GROWS). The last takes every argument (roofline_formula_info.c_name_all).
std::vector<CFunction> c_functions(const FormulaSpec& f);

/// The formula table, in docs/formulas.md order.
std::span<const FormulaSpec> formulas() noexcept;
/// The formula of that name (case-insensitive), or nullptr.
const FormulaSpec* find_formula(std::string_view name) noexcept;
/// The C function of a formula: its name in lower case ("ROOFLINE_DECODE_MS" -> "roofline_decode_ms").
std::string c_function_name(std::string_view formula_name);

/// How documentation shows an argument's default: "989", "0.9", "bf16" (texts unquoted); "" when the
/// argument is not optional. The one formatter of defaults: every host shows this.
std::string default_string(const ArgSpec& arg);
/// A formula's signature as documentation shows it, optional arguments in brackets with their defaults:
/// "ROOFLINE_DECODE_MS(params_b; batch; ctx; bw_tbs; [tflops=989]; [kv_kib_per_token=128]; [bytes_per_param=2])".
std::string signature(const FormulaSpec& formula);

/// An argument of a generic call: a number or a text.
struct Arg {
    std::variant<double, std::string> value;
};

/// The arguments of a call, built one by one: a few on the stack, more on the heap (a call by name of a
/// formula allocates nothing for them).
class ArgList {
public:
    explicit ArgList(std::size_t capacity) {
        if (capacity > kInline) heap_.reserve(capacity);
    }
    ArgList(const ArgList&) = delete;
    ArgList& operator=(const ArgList&) = delete;
    ~ArgList() {
        for (std::size_t i = 0; i < size_; ++i) inline_data()[i].~Arg();
    }
    /// Adds an argument; at most `capacity` of them.
    template <typename T> void push_back(T&& arg) {
        if (heap_.capacity() > 0) {
            heap_.push_back(std::forward<T>(arg));
        } else {
            ::new (static_cast<void*>(inline_data() + size_)) Arg(std::forward<T>(arg));
            ++size_;
        }
    }
    std::span<const Arg> view() const noexcept {
        return heap_.capacity() > 0 ? std::span<const Arg>(heap_) : std::span<const Arg>(inline_data(), size_);
    }

private:
    static constexpr std::size_t kInline = 16;
    Arg* inline_data() noexcept { return std::launder(reinterpret_cast<Arg*>(storage_)); }
    const Arg* inline_data() const noexcept { return std::launder(reinterpret_cast<const Arg*>(storage_)); }

    alignas(Arg) unsigned char storage_[kInline * sizeof(Arg)];
    std::size_t size_ = 0;  ///< constructed in storage_
    std::vector<Arg> heap_;
};

/// An array result: rows x cols cells, row-major, each a number or a text.
struct Table {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<std::variant<double, std::string>> cells;
    bool operator==(const Table&) const = default;
};

/// A table argument's cells from its text: rows separated by '\n' (a "\r\n" counts as one), cells by '\t'; a
/// cell that reads whole as a number (C locale, as std::from_chars) is that number, an empty one "" and any other
/// a text. Every row gets the widest row's number of cells (missing ones ""); a final line break ends the last row.
Table table_from_text(std::string_view text);
/// The text of a table argument (the inverse of table_from_text() for cells without tabs or line breaks):
/// numbers written so that they read back to the same double. Throws Error (invalid_argument, argument
/// `argument`) for a text cell that holds a tab or a line break.
std::string table_text(const Table& table, std::string_view argument);

/// A result: a number, a text or an array.
struct Value {
    std::variant<double, std::string, Table> value;
};

/// Calls a formula by name. Missing trailing optional arguments take their defaults; a `rest` argument
/// takes every argument from its place on.
/// Throws Error: unknown_formula, wrong_arity, invalid_argument (wrong type or domain) and
/// whatever the formula throws.
Value call(std::string_view name, std::span<const Arg> args);

// ---- The formulas. Arguments in formula order, every optional one included. -------------------
namespace formula {

// Roofline primitives
double compute_ms(double flops, double tflops);
double memory_ms(double bytes, double tbs);
double time_ms(double flops, double bytes, double tflops, double tbs);
double ai(double flops, double bytes);
double balance(double tflops, double tbs);
double attainable_tflops(double ai, double tflops, double tbs);
std::string_view bound(double flops, double bytes, double tflops, double tbs);
Table roof(double tflops, double tbs, double ai_min, double ai_max, double points);

// Dense model from its parameter count
double decode_ms(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                 double kv_kib_per_token, double bytes_per_param);
double decode_toks(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                   double kv_kib_per_token, double bytes_per_param);
double decode_ai(double params_b, double batch, double ctx, double kv_kib_per_token,
                 double bytes_per_param);
double decode_flop(double params_b, double batch);
double decode_bytes(double params_b, double batch, double ctx, double kv_kib_per_token, double bytes_per_param);
double critical_batch(double params_b, double ctx, double tflops, double bw_tbs,
                      double kv_kib_per_token, double bytes_per_param);
double prefill_ms(double params_b, double tokens, double tflops, double bw_tbs,
                  double bytes_per_param);
double weights_gb(double params_b, double bytes_per_param);
double kv_gb(double batch, double ctx, double kv_kib_per_token);
double max_batch(double mem_gb, double params_b, double ctx, double kv_kib_per_token,
                 double bytes_per_param, double reserve_gb);

// Catalog and model-aware estimates
Table gpus();
Table models();
double gpu(std::string_view gpu, std::string_view field);
double model(std::string_view model, std::string_view field);
/// ROOFLINE_MODEL_CONFIG: the config text of a model (catalog, user folder, imported, or a config text itself) that
/// reads as the same model wherever it is given as `model`, e.g. kept in a cell of a workbook shared with someone
/// whose catalog lacks it: compact JSON, the checkpoint's hf_quant_config.json folded in (ModelSpec::config).
std::string model_config(std::string_view model);
/// ROOFLINE_ENERGY_J: the energy of ROOFLINE_STEP_MS's decode step over the replica's tp GPUs per output token, J
/// (power.hpp).
double energy_j(std::string_view model, std::string_view gpu, double batch, double ctx, std::string_view weight_dtype,
                std::string_view kv_dtype, double tp, std::string_view profile, double ep = defaults::ep,
                double dp_attention = defaults::dp_attention, double pp = defaults::pp);
/// ROOFLINE_PREFILL_ENERGY_J: the energy of ROOFLINE_TTFT_MS's prefill over the replica's tp GPUs per prompt token, J.
double prefill_energy_j(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
                        std::string_view weight_dtype, double tp, std::string_view profile, double ep = defaults::ep,
                        double dp_attention = defaults::dp_attention, double pp = defaults::pp);
double step_ms(std::string_view model, std::string_view gpu, double batch, double ctx, std::string_view weight_dtype,
               std::string_view kv_dtype, double tp, std::string_view profile, double ep = defaults::ep,
               double dp_attention = defaults::dp_attention, double pp = defaults::pp);
double step_toks(std::string_view model, std::string_view gpu, double batch, double ctx, std::string_view weight_dtype,
                 std::string_view kv_dtype, double tp, std::string_view profile, double ep = defaults::ep,
                 double dp_attention = defaults::dp_attention, double pp = defaults::pp);
double ttft_ms(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
               std::string_view weight_dtype, double tp, std::string_view profile, double ep = defaults::ep,
               double dp_attention = defaults::dp_attention, double pp = defaults::pp);
double fit_batch(std::string_view model, std::string_view gpu, double ctx, std::string_view weight_dtype,
                 std::string_view kv_dtype, double tp, double mem_util, double ep = defaults::ep,
                 double dp_attention = defaults::dp_attention, double pp = defaults::pp);
Table step_breakdown(std::string_view model, std::string_view gpu, double batch, double ctx,
                     std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile,
                     double ep = defaults::ep, double dp_attention = defaults::dp_attention, double pp = defaults::pp);
double cache_gb(std::string_view model, double batch, double ctx, std::string_view kv_dtype, double tp,
                double ep = defaults::ep, double dp_attention = defaults::dp_attention, double pp = defaults::pp);
Table ttft_breakdown(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
                     std::string_view weight_dtype, double tp, std::string_view profile, double ep = defaults::ep,
                     double dp_attention = defaults::dp_attention, double pp = defaults::pp);

// Planner (the serving model of docs/serving-model.md)
double e2e_ms(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens, double batch,
              std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile,
              double mem_util, double ep = defaults::ep, double dp_attention = defaults::dp_attention,
              double pp = defaults::pp);
double slo_batch(std::string_view model, std::string_view gpu, double ctx, double tpot_ms,
                 std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile,
                 double mem_util, double ep = defaults::ep, double dp_attention = defaults::dp_attention,
                 double pp = defaults::pp, double percentile = 0, double prompt_tokens = 0);
double replica_rps(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens,
                   double ttft_ms, double tpot_ms, std::string_view weight_dtype, std::string_view kv_dtype, double tp,
                   std::string_view profile, double mem_util, double ep = defaults::ep,
                   double dp_attention = defaults::dp_attention, double pp = defaults::pp, double percentile = 0);
/// ROOFLINE_CURVE: the throughput-against-interactivity curve (serving::curve): a header row, then one row per decode
/// batch, fastest first; with tp 0 every replica size and layout the planner tries, reduced to the front.
Table curve(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens,
            std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep,
            double dp_attention, double pp, double ttft_ms, double mem_util, double percentile = 0);
/// ROOFLINE_SIMULATE: one replica under a stream of requests, simulated (serving::simulate): a header row, then the
/// latencies' mean and percentiles, then the run's values.
Table simulate(std::string_view model, std::string_view gpu, double rps, double prompt_tokens, double output_tokens,
               std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep,
               double dp_attention, double pp, std::string_view arrival, double cv, double requests, double seed,
               std::string_view lengths, double spread, double ttft_ms, double tpot_ms, double mem_util,
               double prefix_tokens, double prefix_share, double turns, double think_s, double host_kv_gb,
               double host_tbs, double concurrency = 0);
Table plan(std::string_view model, double rps, double prompt_tokens, double output_tokens, double ttft_ms,
           double tpot_ms, std::string_view gpu, std::string_view weight_dtype, std::string_view kv_dtype,
           std::string_view profile, double disaggregated, std::string_view prices, double mem_util,
           std::string_view rows = defaults::plan_rows, double headroom = defaults::plan_headroom,
           double min_replicas = defaults::plan_min_replicas, double percentile = 0,
           double usd_per_kwh = defaults::plan_usd_per_kwh, double pue = defaults::plan_pue,
           double max_kw = defaults::plan_max_kw, std::string_view prefill_gpu = defaults::plan_prefill_gpu,
           double input_ratio = defaults::plan_input_ratio, std::string_view rent = defaults::plan_rent,
           std::string_view price_basis = defaults::plan_price_basis, double years = defaults::plan_years);
/// ROOFLINE_FLEET: each workload's cheapest plan and the totals (serving::fleet).
Table fleet(std::string_view workloads, std::string_view gpu = defaults::plan_gpus,
            std::string_view weight_dtype = defaults::plan_weight_dtype,
            std::string_view profile = defaults::plan_profile, std::string_view prices = defaults::plan_prices,
            double headroom = defaults::plan_headroom, double min_replicas = defaults::plan_min_replicas,
            std::string_view price_basis = defaults::plan_price_basis, double years = defaults::plan_years,
            double usd_per_kwh = defaults::plan_usd_per_kwh, double pue = defaults::plan_pue,
            std::string_view rent = defaults::plan_rent);
double cost_per_mtok(double usd_per_gpu_hour, double gpus, double output_tokens_per_s);
double spec_tokens(double acceptance, double draft_len);
double spec_step_ms(std::string_view model, std::string_view draft_model, std::string_view gpu, double batch,
                    double ctx, double draft_len, double acceptance, std::string_view weight_dtype,
                    std::string_view kv_dtype, double tp, std::string_view profile, double ep = defaults::ep,
                    double dp_attention = defaults::dp_attention, double pp = defaults::pp);

// Calibration
std::string calibrate(std::string_view measurements, std::string_view base_profile);
Table calibrate_rows(std::string_view measurements, std::string_view base_profile);

// Why a formula fails
std::string why(std::string_view formula, std::span<const Arg> arguments);

}  // namespace formula
}  // namespace roofline

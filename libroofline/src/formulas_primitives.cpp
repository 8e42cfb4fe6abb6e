// The formulas of the groups "Roofline primitives" and "Dense model from its parameter count": the article's
// concepts (roofline.hpp, dense.hpp) through the table (formula_table.hpp).
#include <fmt/format.h>

#include <cmath>

#include "roofline/defaults.hpp"
#include "roofline/dense.hpp"
#include "roofline/formulas.hpp"
#include "roofline/roofline.hpp"
#include "roofline/units.hpp"

#include "formula_table.hpp"

namespace roofline::formula {

using namespace formula_table;

namespace {

DenseModel dense(double params_b, double bytes_per_param, double kv_kib_per_token) {
    return {params_b, bytes_per_param, kv_kib_per_token};
}

}  // namespace

// ---- Roofline primitives. ----------------------------------------------------------------------

double compute_ms(double flops, double tflops) {
    const auto& f = checked<&compute_ms>({flops, tflops});
    return finite(f, compute_time_ms(flops, tflops));
}

double memory_ms(double bytes, double tbs) {
    const auto& f = checked<&memory_ms>({bytes, tbs});
    return finite(f, memory_time_ms(bytes, tbs));
}

double time_ms(double flops, double bytes, double tflops, double tbs) {
    const auto& f = checked<&time_ms>({flops, bytes, tflops, tbs});
    return finite(f, step_time({flops, bytes}, {tflops, tbs}).time_ms);
}

double ai(double flops, double bytes) {
    const auto& f = checked<&ai>({flops, bytes});
    return finite(f, arithmetic_intensity({flops, bytes}));
}

double balance(double tflops, double tbs) {
    const auto& f = checked<&balance>({tflops, tbs});
    return finite(f, balance_point({tflops, tbs}));
}

double attainable_tflops(double ai, double tflops, double tbs) {
    const auto& f = checked<&attainable_tflops>({ai, tflops, tbs});
    return finite(f, roofline::attainable_tflops(ai, Gpu{tflops, tbs}));
}

std::string_view bound(double flops, double bytes, double tflops, double tbs) {
    const auto& f = checked<&bound>({flops, bytes, tflops, tbs});
    const StepTime t = step_time({flops, bytes}, {tflops, tbs});
    finite(f, t.time_ms);
    return to_string(t.bound);
}

Table roof(double tflops, double tbs, double ai_min, double ai_max, double points) {
    const auto& f = checked<&roof>({tflops, tbs, ai_min, ai_max, points});
    if (!(ai_max > ai_min))
        out_of_domain(f, arg_named(f, "ai_max"), ai_max, fmt::format("greater than ai_min ({})", ai_min));
    if (points < 2) out_of_domain(f, arg_named(f, "points"), points, "at least 2");
    Rows t(f, Rows::Header::none);
    for (const RoofPoint& p : roofline::roof({tflops, tbs}, ai_min, ai_max, static_cast<int>(points)))
        t.number(p.ai).number(p.attainable_tflops).end_row();
    return std::move(t).done();
}

// ---- Dense model from its parameter count. -----------------------------------------------------

double decode_ms(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                 double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_ms>({params_b, batch, ctx, bw_tbs, tflops, kv_kib_per_token, bytes_per_param});
    const Work w = decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx);
    return finite(f, step_time(w, {tflops, bw_tbs}).time_ms);
}

double decode_toks(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                   double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_toks>({params_b, batch, ctx, bw_tbs, tflops, kv_kib_per_token, bytes_per_param});
    const Work w = decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx);
    const double step_ms = finite(f, step_time(w, {tflops, bw_tbs}).time_ms);
    return finite(f, batch / units::seconds_from_ms(step_ms));
}

double decode_ai(double params_b, double batch, double ctx, double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_ai>({params_b, batch, ctx, kv_kib_per_token, bytes_per_param});
    const Work w = decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx);
    finite(f, w.flops);
    return finite(f, arithmetic_intensity(w));
}

double decode_flop(double params_b, double batch) {
    const auto& f = checked<&decode_flop>({params_b, batch});
    return finite(f, decode_work(dense(params_b, defaults::bf16_bytes_per_param, 0), batch, 0).flops);
}

double decode_bytes(double params_b, double batch, double ctx, double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_bytes>({params_b, batch, ctx, kv_kib_per_token, bytes_per_param});
    return finite(f, decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx).bytes);
}

double critical_batch(double params_b, double ctx, double tflops, double bw_tbs, double kv_kib_per_token,
                      double bytes_per_param) {
    const auto& f = checked<&critical_batch>({params_b, ctx, tflops, bw_tbs, kv_kib_per_token, bytes_per_param});
    const CriticalBatch c =
        roofline::critical_batch(dense(params_b, bytes_per_param, kv_kib_per_token), ctx, {tflops, bw_tbs});
    if (!c.reachable)
        throw Error::of_call(Status::no_solution, f.name, "ctx",
                             fmt::format("no batch is compute bound: with ctx = {} tokens of {} KiB each, every "
                                         "sequence adds more memory time than compute time",
                                         ctx, kv_kib_per_token));
    return finite(f, c.batch);
}

double prefill_ms(double params_b, double tokens, double tflops, double bw_tbs, double bytes_per_param) {
    const auto& f = checked<&prefill_ms>({params_b, tokens, tflops, bw_tbs, bytes_per_param});
    const Work w = prefill_work(dense(params_b, bytes_per_param, 0), tokens);
    return finite(f, step_time(w, {tflops, bw_tbs}).time_ms);
}

double weights_gb(double params_b, double bytes_per_param) {
    const auto& f = checked<&weights_gb>({params_b, bytes_per_param});
    return finite(f, units::gb_from_bytes(weight_bytes(dense(params_b, bytes_per_param, 0))));
}

double kv_gb(double batch, double ctx, double kv_kib_per_token) {
    const auto& f = checked<&kv_gb>({batch, ctx, kv_kib_per_token});
    return finite(f, units::gb_from_bytes(kv_bytes(dense(0, 0, kv_kib_per_token), batch, ctx)));
}

double max_batch(double mem_gb, double params_b, double ctx, double kv_kib_per_token, double bytes_per_param,
                 double reserve_gb) {
    const auto& f = checked<&max_batch>({mem_gb, params_b, ctx, kv_kib_per_token, bytes_per_param, reserve_gb});
    const DenseModel m = dense(params_b, bytes_per_param, kv_kib_per_token);
    const MemoryFit fit = roofline::max_batch(m, mem_gb, ctx, reserve_gb);
    if (!fit.weights_fit)
        throw Error::of_call(Status::no_solution, f.name, "mem_gb",
                             fmt::format("the weights ({} GB) and the reserve ({} GB) do not fit in mem_gb = {} GB",
                                         units::gb_from_bytes(weight_bytes(m)), reserve_gb, mem_gb));
    return finite(f, fit.batch);
}

}  // namespace roofline::formula

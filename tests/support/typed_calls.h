/*
** Every typed function of roofline.h behind one signature, for table-driven tests and fuzzers:
** call(args, out) passes args[0..n-1] in formula order (numbers as .number, texts as .text) and writes
** the result to *out (a double, a const char*, or a roofline_array*, by the formula's result type).
** Passing out == NULL tests the NULL result pointer. test_c_api.c checks that this table covers every
** formula of the library.
*/
#ifndef ROOFLINE_TESTS_TYPED_CALLS_H
#define ROOFLINE_TESTS_TYPED_CALLS_H

#include <roofline.h>

typedef struct typed_call {
    const char* name;
    int (*call)(const roofline_value* a, void* out);
} typed_call;

#define N(i) a[i].number
#define T(i) a[i].text
#define TC(fn, type, ...) \
    static int tc_##fn(const roofline_value* a, void* out) { (void)a; return roofline_##fn(__VA_ARGS__ (type)out); }
TC(compute_ms, double*, N(0), N(1),)
TC(memory_ms, double*, N(0), N(1),)
TC(time_ms, double*, N(0), N(1), N(2), N(3),)
TC(ai, double*, N(0), N(1),)
TC(balance, double*, N(0), N(1),)
TC(attainable_tflops, double*, N(0), N(1), N(2),)
TC(bound, const char**, N(0), N(1), N(2), N(3),)
TC(roof, roofline_array**, N(0), N(1), N(2), N(3), N(4),)
TC(decode_ms, double*, N(0), N(1), N(2), N(3), N(4), N(5), N(6),)
TC(decode_toks, double*, N(0), N(1), N(2), N(3), N(4), N(5), N(6),)
TC(decode_ai, double*, N(0), N(1), N(2), N(3), N(4),)
TC(decode_flop, double*, N(0), N(1),)
TC(decode_bytes, double*, N(0), N(1), N(2), N(3), N(4),)
TC(critical_batch, double*, N(0), N(1), N(2), N(3), N(4), N(5),)
TC(prefill_ms, double*, N(0), N(1), N(2), N(3), N(4),)
TC(weights_gb, double*, N(0), N(1),)
TC(kv_gb, double*, N(0), N(1), N(2),)
TC(max_batch, double*, N(0), N(1), N(2), N(3), N(4), N(5),)
TC(gpus, roofline_array**,)
TC(models, roofline_array**,)
TC(gpu, double*, T(0), T(1),)
TC(model, double*, T(0), T(1),)
TC(step_ms, double*, T(0), T(1), N(2), N(3), T(4), T(5), N(6), T(7),)
TC(step_toks, double*, T(0), T(1), N(2), N(3), T(4), T(5), N(6), T(7),)
TC(ttft_ms, double*, T(0), T(1), N(2), N(3), T(4), N(5), T(6),)
TC(fit_batch, double*, T(0), T(1), N(2), T(3), T(4), N(5), N(6),)
TC(step_breakdown, roofline_array**, T(0), T(1), N(2), N(3), T(4), T(5), N(6), T(7),)
TC(ttft_breakdown, roofline_array**, T(0), T(1), N(2), N(3), T(4), N(5), T(6),)
/* A REST argument: every value from its place on; the table-driven callers pass one. */
TC(why, const char**, T(0), a + 1, 1,)
#undef TC
#undef N
#undef T

static const typed_call typed_calls[] = {
    {"ROOFLINE_COMPUTE_MS", tc_compute_ms},
    {"ROOFLINE_MEMORY_MS", tc_memory_ms},
    {"ROOFLINE_TIME_MS", tc_time_ms},
    {"ROOFLINE_AI", tc_ai},
    {"ROOFLINE_BALANCE", tc_balance},
    {"ROOFLINE_ATTAINABLE_TFLOPS", tc_attainable_tflops},
    {"ROOFLINE_BOUND", tc_bound},
    {"ROOFLINE_ROOF", tc_roof},
    {"ROOFLINE_DECODE_MS", tc_decode_ms},
    {"ROOFLINE_DECODE_TOKS", tc_decode_toks},
    {"ROOFLINE_DECODE_AI", tc_decode_ai},
    {"ROOFLINE_DECODE_FLOP", tc_decode_flop},
    {"ROOFLINE_DECODE_BYTES", tc_decode_bytes},
    {"ROOFLINE_CRITICAL_BATCH", tc_critical_batch},
    {"ROOFLINE_PREFILL_MS", tc_prefill_ms},
    {"ROOFLINE_WEIGHTS_GB", tc_weights_gb},
    {"ROOFLINE_KV_GB", tc_kv_gb},
    {"ROOFLINE_MAX_BATCH", tc_max_batch},
    {"ROOFLINE_GPUS", tc_gpus},
    {"ROOFLINE_MODELS", tc_models},
    {"ROOFLINE_GPU", tc_gpu},
    {"ROOFLINE_MODEL", tc_model},
    {"ROOFLINE_STEP_MS", tc_step_ms},
    {"ROOFLINE_STEP_TOKS", tc_step_toks},
    {"ROOFLINE_TTFT_MS", tc_ttft_ms},
    {"ROOFLINE_FIT_BATCH", tc_fit_batch},
    {"ROOFLINE_STEP_BREAKDOWN", tc_step_breakdown},
    {"ROOFLINE_TTFT_BREAKDOWN", tc_ttft_breakdown},
    {"ROOFLINE_WHY", tc_why},
};
static const unsigned typed_call_count = sizeof typed_calls / sizeof typed_calls[0];

#endif

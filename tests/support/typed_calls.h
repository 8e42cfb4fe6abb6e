/*
** Every typed function of roofline.h behind one signature, for table-driven tests and fuzzers:
** call(args, out) passes args[0..n-1] in formula order and writes the result to *out (a double,
** a const char*, or a roofline_array*, by the formula's result type). Passing out == NULL tests the
** NULL result pointer. test_c_api.c checks that this table covers every formula of the library.
*/
#ifndef ROOFLINE_TESTS_TYPED_CALLS_H
#define ROOFLINE_TESTS_TYPED_CALLS_H

#include <roofline.h>

typedef struct typed_call {
    const char* name;
    int (*call)(const double* a, void* out);
} typed_call;

#define TC_NUM(fn, ...) static int tc_##fn(const double* a, void* out) { return roofline_##fn(__VA_ARGS__, (double*)out); }
TC_NUM(compute_ms, a[0], a[1])
TC_NUM(memory_ms, a[0], a[1])
TC_NUM(time_ms, a[0], a[1], a[2], a[3])
TC_NUM(ai, a[0], a[1])
TC_NUM(balance, a[0], a[1])
TC_NUM(attainable_tflops, a[0], a[1], a[2])
TC_NUM(decode_ms, a[0], a[1], a[2], a[3], a[4], a[5], a[6])
TC_NUM(decode_toks, a[0], a[1], a[2], a[3], a[4], a[5], a[6])
TC_NUM(decode_ai, a[0], a[1], a[2], a[3], a[4])
TC_NUM(critical_batch, a[0], a[1], a[2], a[3], a[4], a[5])
TC_NUM(prefill_ms, a[0], a[1], a[2], a[3], a[4])
TC_NUM(weights_gb, a[0], a[1])
TC_NUM(kv_gb, a[0], a[1], a[2])
TC_NUM(max_batch, a[0], a[1], a[2], a[3], a[4], a[5])
#undef TC_NUM
static int tc_bound(const double* a, void* out) { return roofline_bound(a[0], a[1], a[2], a[3], (const char**)out); }
static int tc_roof(const double* a, void* out) { return roofline_roof(a[0], a[1], a[2], a[3], a[4], (roofline_array**)out); }

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
    {"ROOFLINE_CRITICAL_BATCH", tc_critical_batch},
    {"ROOFLINE_PREFILL_MS", tc_prefill_ms},
    {"ROOFLINE_WEIGHTS_GB", tc_weights_gb},
    {"ROOFLINE_KV_GB", tc_kv_gb},
    {"ROOFLINE_MAX_BATCH", tc_max_batch},
};
static const unsigned typed_call_count = sizeof typed_calls / sizeof typed_calls[0];

#endif

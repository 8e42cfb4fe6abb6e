/*
** Tests of the C ABI, in C99: every typed function agrees with roofline_call() on the formula table's
** defaults, bad input gives a status and a message naming the argument, NULL pointers are refused,
** and arrays, status strings, versions and the table read back as documented.
*/
#include <roofline.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/typed_calls.h"

static int passed = 0, failed = 0;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (cond) {                                                                   \
            ++passed;                                                                 \
        } else {                                                                      \
            ++failed;                                                                 \
            fprintf(stderr, "%s:%d: CHECK(%s) failed (%s)\n", __FILE__, __LINE__, #cond, \
                    roofline_errmsg());                                               \
        }                                                                             \
    } while (0)

/* The value of a formula called by name with its required arguments only. */
static double by_name(const char* name, const double* required, size_t n) {
    roofline_value args[8];
    roofline_array* r = NULL;
    double v;
    size_t i;
    for (i = 0; i < n; ++i) {
        args[i].number = required[i];
        args[i].text = NULL;
    }
    if (roofline_call(name, args, n, &r) != ROOFLINE_OK) return NAN;
    v = roofline_array_number(r, 0, 0);
    roofline_array_free(r);
    return v;
}

/* The default of argument `index` of a formula, from the table. */
static double def(const char* name, size_t index) {
    return roofline_formula_find(name)->args[index]->default_number;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

static void test_typed_functions_match_the_table(void) {
    double r = 0;
    const double dec[] = {8, 64, 4096, 3.35};
    const double crit[] = {8, 0, 989, 3.35};
    const double pre[] = {8, 2000, 989};
    const double mb[] = {80, 8, 4096};

    CHECK(roofline_compute_ms(16e9, 989, &r) == ROOFLINE_OK && close_to(r, by_name("ROOFLINE_COMPUTE_MS", (double[]){16e9, 989}, 2)));
    CHECK(roofline_memory_ms(16e9, 3.35, &r) == ROOFLINE_OK && close_to(r, by_name("ROOFLINE_MEMORY_MS", (double[]){16e9, 3.35}, 2)));
    CHECK(roofline_time_ms(1e12, 16e9, 989, 3.35, &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_TIME_MS", (double[]){1e12, 16e9, 989, 3.35}, 4)));
    CHECK(roofline_ai(2e12, 16e9, &r) == ROOFLINE_OK && close_to(r, 125));
    CHECK(roofline_balance(989, 3.35, &r) == ROOFLINE_OK && close_to(r, by_name("ROOFLINE_BALANCE", (double[]){989, 3.35}, 2)));
    CHECK(roofline_attainable_tflops(64, 989, 3.35, &r) == ROOFLINE_OK && close_to(r, 64 * 3.35));
    CHECK(roofline_decode_ms(8, 64, 4096, 3.35, def("ROOFLINE_DECODE_MS", 4), def("ROOFLINE_DECODE_MS", 5),
                             def("ROOFLINE_DECODE_MS", 6), &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_DECODE_MS", dec, 4)));
    CHECK(roofline_decode_toks(8, 64, 4096, 3.35, def("ROOFLINE_DECODE_TOKS", 4), def("ROOFLINE_DECODE_TOKS", 5),
                               def("ROOFLINE_DECODE_TOKS", 6), &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_DECODE_TOKS", dec, 4)));
    CHECK(roofline_decode_ai(8, 64, 4096, def("ROOFLINE_DECODE_AI", 3), def("ROOFLINE_DECODE_AI", 4), &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_DECODE_AI", dec, 3)));
    CHECK(roofline_critical_batch(8, 0, 989, 3.35, def("ROOFLINE_CRITICAL_BATCH", 4), def("ROOFLINE_CRITICAL_BATCH", 5),
                                  &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_CRITICAL_BATCH", crit, 4)));
    CHECK(roofline_prefill_ms(8, 2000, 989, def("ROOFLINE_PREFILL_MS", 3), def("ROOFLINE_PREFILL_MS", 4), &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_PREFILL_MS", pre, 3)));
    CHECK(roofline_weights_gb(8, def("ROOFLINE_WEIGHTS_GB", 1), &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_WEIGHTS_GB", dec, 1)));
    CHECK(roofline_kv_gb(64, 4096, def("ROOFLINE_KV_GB", 2), &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_KV_GB", dec + 1, 2)));
    CHECK(roofline_max_batch(80, 8, 4096, def("ROOFLINE_MAX_BATCH", 3), def("ROOFLINE_MAX_BATCH", 4),
                             def("ROOFLINE_MAX_BATCH", 5), &r) == ROOFLINE_OK &&
          close_to(r, by_name("ROOFLINE_MAX_BATCH", mb, 3)));
}

static void test_text_and_array_results(void) {
    const char* bound = NULL;
    roofline_array* roof = NULL;
    CHECK(roofline_bound(0, 14e9, 989, 2, &bound) == ROOFLINE_OK && strcmp(bound, "memory") == 0);
    CHECK(roofline_bound(1e15, 1e9, 989, 2, &bound) == ROOFLINE_OK && strcmp(bound, "compute") == 0);

    CHECK(roofline_roof(989, 3.35, 1, 1000, 4, &roof) == ROOFLINE_OK);
    CHECK(roofline_array_rows(roof) == 4 && roofline_array_cols(roof) == 2);
    CHECK(close_to(roofline_array_number(roof, 1, 0), 10));
    CHECK(close_to(roofline_array_number(roof, 1, 1), 33.5));
    CHECK(roofline_array_number(roof, 3, 1) == 989);
    CHECK(!roofline_array_is_text(roof, 0, 0) && roofline_array_text(roof, 0, 0) == NULL);
    CHECK(roofline_array_number(roof, 4, 0) == 0 && roofline_array_number(roof, 0, 2) == 0);
    roofline_array_free(roof);
    roofline_array_free(NULL);
    CHECK(roofline_array_rows(NULL) == 0 && roofline_array_cols(NULL) == 0);

    {
        roofline_value args[2] = {{0, NULL}, {14e9, NULL}};
        roofline_value more[4] = {{0, NULL}, {14e9, NULL}, {989, NULL}, {2, NULL}};
        roofline_array* r = NULL;
        CHECK(roofline_call("roofline_bound", more, 4, &r) == ROOFLINE_OK);
        CHECK(roofline_array_is_text(r, 0, 0) && strcmp(roofline_array_text(r, 0, 0), "memory") == 0);
        roofline_array_free(r);
        r = NULL;
        CHECK(roofline_call("ROOFLINE_BOUND", args, 2, &r) == ROOFLINE_ERROR_ARITY && r == NULL);
        CHECK(roofline_call("ROOFLINE_NOPE", args, 2, &r) == ROOFLINE_ERROR_UNKNOWN_FORMULA);
        more[1].text = "lots";
        CHECK(roofline_call("ROOFLINE_BOUND", more, 4, &r) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(strcmp(roofline_errarg(), "bytes") == 0);
    }
    {
        /* A model's config text: given as the model, it computes as the model's id does. */
        const char* config = NULL;
        char* kept = NULL;
        double by_id = 0, by_text = 0;
        CHECK(roofline_model_config("llama-3-8b", &config) == ROOFLINE_OK && config && config[0] == '{');
        kept = config ? malloc(strlen(config) + 1) : NULL; /* valid until this thread's next call: kept */
        if (kept) {
            strcpy(kept, config);
            CHECK(roofline_step_ms("llama-3-8b", "h100-sxm", 64, 4096, "", "", 1, "typical", &by_id) == ROOFLINE_OK);
            CHECK(roofline_step_ms(kept, "h100-sxm", 64, 4096, "", "", 1, "typical", &by_text) == ROOFLINE_OK);
            CHECK(by_id > 0 && by_text == by_id);
            free(kept);
        }
        CHECK(roofline_model_config("llama3-8b", &config) == ROOFLINE_ERROR_UNKNOWN_ID);
        CHECK(strcmp(roofline_errarg(), "model") == 0);
        CHECK(roofline_model_config(NULL, &config) == ROOFLINE_ERROR_NULL);
    }
}

/* The energy functions (since 0.14): within idle and board power for the step's time; a GPU without a board power
** in a user catalog is refused naming `gpu`. */
static void test_energy(void) {
    double j = 0, ms = 0, board = 0, idle = 0, prefill = 0, ttft = 0;
    CHECK(roofline_energy_j("llama-3.1-8b", "h200", 16, 4096, "native", "bf16", 1, "typical", 1, 1, 1, &j) ==
          ROOFLINE_OK);
    CHECK(roofline_step_ms("llama-3.1-8b", "h200", 16, 4096, "native", "bf16", 1, "typical", &ms) == ROOFLINE_OK);
    CHECK(roofline_gpu("h200", "power_w", &board) == ROOFLINE_OK && roofline_gpu("h200", "idle_w", &idle) == ROOFLINE_OK);
    CHECK(j * 16 <= board * ms / 1000 * (1 + 1e-12) && j * 16 > idle * ms / 1000);
    CHECK(roofline_prefill_energy_j("llama-3.1-8b", "h200", 2000, 1, "native", 1, "typical", 1, 1, 1, &prefill) ==
          ROOFLINE_OK);
    CHECK(roofline_ttft_ms("llama-3.1-8b", "h200", 2000, 1, "native", 1, "typical", &ttft) == ROOFLINE_OK);
    CHECK(prefill * 2000 <= board * ttft / 1000 * (1 + 1e-12) && prefill > 0);
    CHECK(roofline_energy_j("llama-3.1-8b", "h200", 0, 4096, "native", "bf16", 1, "typical", 1, 1, 1, &j) ==
          ROOFLINE_ERROR_ARGUMENT);
    CHECK(strcmp(roofline_errarg(), "batch") == 0);
}

static void test_bad_input(void) {
    double r = -7;
    const char* s = NULL;
    CHECK(roofline_decode_ms(8, NAN, 0, 3.35, 989, 128, 2, &r) == ROOFLINE_ERROR_ARGUMENT && r == -7);
    CHECK(strcmp(roofline_errarg(), "batch") == 0 && strstr(roofline_errmsg(), "'batch'") != NULL);
    CHECK(roofline_decode_ms(8, 1, 0, 0, 989, 128, 2, &r) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(strcmp(roofline_errarg(), "bw_tbs") == 0);
    CHECK(roofline_memory_ms(INFINITY, 3.35, &r) == ROOFLINE_ERROR_ARGUMENT && strcmp(roofline_errarg(), "bytes") == 0);
    CHECK(roofline_compute_ms(-1, 989, &r) == ROOFLINE_ERROR_ARGUMENT && strcmp(roofline_errarg(), "flops") == 0);
    CHECK(roofline_kv_gb(1.5, 10, 128, &r) == ROOFLINE_ERROR_ARGUMENT && strcmp(roofline_errarg(), "batch") == 0);
    CHECK(roofline_bound(0, 1, 989, -3, &s) == ROOFLINE_ERROR_ARGUMENT && s == NULL);
    CHECK(roofline_critical_batch(8, 4096, 989, 3.35, 128, 2, &r) == ROOFLINE_ERROR_NO_SOLUTION);
    CHECK(roofline_max_batch(10, 8, 4096, 128, 2, 0, &r) == ROOFLINE_ERROR_NO_SOLUTION);
    CHECK(strcmp(roofline_errarg(), "mem_gb") == 0);
    CHECK(roofline_compute_ms(1e300, 1e-300, &r) == ROOFLINE_ERROR_RANGE);
    /* The message says where, which argument and why; errdetail says why alone. */
    CHECK(roofline_decode_ms(8, -1, 0, 3.35, 989, 128, 2, &r) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(strcmp(roofline_errmsg(), "ROOFLINE_DECODE_MS: argument 'batch': must be a whole number >= 1 (got -1)") == 0);
    CHECK(strcmp(roofline_errdetail(), "must be a whole number >= 1 (got -1)") == 0);
    CHECK(roofline_step_ms("llama3-70b", "h100-sxm", 1, 0, "bf16", "", 1, "bound", &r) == ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(strcmp(roofline_errarg(), "model") == 0);
    CHECK(strcmp(roofline_errmsg(),
                 "ROOFLINE_STEP_MS: argument 'model': no model 'llama3-70b' in the catalog; did you mean 'llama-3-70b'?") == 0);
    CHECK(strcmp(roofline_errdetail(), "no model 'llama3-70b' in the catalog; did you mean 'llama-3-70b'?") == 0);
    CHECK(roofline_step_ms("llama-3-8b", "h100-sxm", 1, 0, "bf16", "fp9", 1, "bound", &r) == ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(strcmp(roofline_errarg(), "kv_dtype") == 0 && strstr(roofline_errdetail(), "did you mean 'fp8'?") != NULL);
    CHECK(roofline_fit_batch("llama-3-70b", "h100-sxm", 4096, "bf16", "", 1, 0.9, &r) == ROOFLINE_ERROR_NO_SOLUTION);
    CHECK(strcmp(roofline_errdetail(), "the weights (141 GB per GPU) do not fit in 0.9 of the 85.52 GB of a 'h100-sxm'") == 0);
    CHECK(roofline_decode_ms(8, 1, 0, 3.35, 989, 128, 2, NULL) == ROOFLINE_ERROR_NULL);
    CHECK(strcmp(roofline_errmsg(), "ROOFLINE_DECODE_MS: argument 'result': is NULL") == 0);
    CHECK(strcmp(roofline_errdetail(), "is NULL") == 0);
    /* The error is cleared by the next call that succeeds. */
    CHECK(roofline_balance(989, 3.35, &r) == ROOFLINE_OK && roofline_errmsg()[0] == '\0' && roofline_errarg()[0] == '\0');
    CHECK(roofline_errdetail()[0] == '\0');
}

/* The Planner formulas: one good value each, and bad input naming its argument. Since 0.4. */
/* ROOFLINE_SIMULATE: a header row and fourteen rows by name; the same seed the same numbers, another seed others. */
static void test_simulate(void) {
    roofline_array *a = NULL, *b = NULL, *c = NULL;
    size_t r;
    CHECK(roofline_simulate("llama-3.1-8b", "h100-sxm", 12, 1000, 200, "", "", 1, "typical", 1, 1, 1, "poisson", 1, 300,
                            1, "fixed", 0, 0, 0, 0.9, 0, 0, 1, 0, 0, 0, &a) == ROOFLINE_OK);
    CHECK(roofline_simulate("llama-3.1-8b", "h100-sxm", 12, 1000, 200, "", "", 1, "typical", 1, 1, 1, "poisson", 1, 300,
                            1, "fixed", 0, 0, 0, 0.9, 0, 0, 1, 0, 0, 0, &b) == ROOFLINE_OK);
    CHECK(roofline_simulate("llama-3.1-8b", "h100-sxm", 12, 1000, 200, "", "", 1, "typical", 1, 1, 1, "poisson", 1, 300,
                            2, "fixed", 0, 0, 0, 0.9, 0, 0, 1, 0, 0, 0, &c) == ROOFLINE_OK);
    CHECK(roofline_array_cols(a) == 5 && roofline_array_rows(a) == 15);
    CHECK(strcmp(roofline_array_text(a, 0, 0), "metric") == 0 && strcmp(roofline_array_text(a, 0, 4), "p99") == 0);
    CHECK(strcmp(roofline_array_text(a, 1, 0), "ttft_ms") == 0 && strcmp(roofline_array_text(a, 4, 0), "e2e_ms") == 0);
    CHECK(strcmp(roofline_array_text(a, 13, 0), "max_queue") == 0 && strcmp(roofline_array_text(a, 13, 4), "") == 0);
    for (r = 1; r <= 4; ++r) {
        CHECK(roofline_array_number(a, r, 2) <= roofline_array_number(a, r, 3));
        CHECK(roofline_array_number(a, r, 3) <= roofline_array_number(a, r, 4));
        CHECK(roofline_array_number(a, r, 4) == roofline_array_number(b, r, 4));
    }
    CHECK(roofline_array_number(a, 1, 4) != roofline_array_number(c, 1, 4));
    CHECK(roofline_array_number(a, 9, 1) == 300); /* requests */
    roofline_array_free(b);
    roofline_array_free(c);
    b = c = NULL;
    /* _v2: concurrency 0 is roofline_simulate's run; at most 4 in flight, at most 4 decode together. */
    CHECK(roofline_simulate_v2("llama-3.1-8b", "h100-sxm", 12, 1000, 200, "", "", 1, "typical", 1, 1, 1, "poisson", 1,
                               300, 1, "fixed", 0, 0, 0, 0.9, 0, 0, 1, 0, 0, 0, 0, &b) == ROOFLINE_OK);
    for (r = 1; r < roofline_array_rows(a); ++r)
        CHECK(roofline_array_number(a, r, 1) == roofline_array_number(b, r, 1));
    CHECK(roofline_simulate_v2("llama-3.1-8b", "h100-sxm", 1000, 1000, 200, "", "", 1, "typical", 1, 1, 1, "poisson", 1,
                               300, 1, "fixed", 0, 0, 0, 0.9, 0, 0, 1, 0, 0, 0, 4, &c) == ROOFLINE_OK);
    CHECK(strcmp(roofline_array_text(c, 7, 0), "mean_batch") == 0 && roofline_array_number(c, 7, 1) <= 4);
    roofline_array_free(c);
    c = NULL;
    CHECK(roofline_simulate_v2("llama-3.1-8b", "h100-sxm", 1000, 1000, 200, "", "", 1, "typical", 1, 1, 1, "poisson", 1,
                               300, 1, "fixed", 0, 0, 0, 0.9, 0, 0, 1, 0, 0, 0, 0.5, &c) == ROOFLINE_ERROR_ARGUMENT &&
          c == NULL && strcmp(roofline_errarg(), "concurrency") == 0);
    roofline_array_free(a);
    roofline_array_free(b);
    a = b = NULL;
    CHECK(roofline_simulate("llama-3.1-8b", "h100-sxm", 12, 1000, 200, "", "", 1, "typical", 1, 1, 1, "burst", 1, 300, 1,
                            "fixed", 0, 0, 0, 0.9, 0, 0, 1, 0, 0, 0, &a) == ROOFLINE_ERROR_UNKNOWN_ID && a == NULL);
    CHECK(strcmp(roofline_errarg(), "arrival") == 0);
}

static void test_planner(void) {
    double r = -7, r2 = -7, step = 0, next = 0, ttft = 0;
    roofline_array* plan = NULL;
    /* 8 GPUs at 2 USD an hour making 1000 tokens/s: 16 USD / 3.6e6 tokens x 1e6 = 4.444 USD per million. */
    CHECK(roofline_cost_per_mtok(2, 8, 1000, &r) == ROOFLINE_OK && fabs(r - 16.0 / 3.6) < 1e-12);
    /* (1 - 0.8^5) / (1 - 0.8) = 1 + 0.8 + 0.64 + 0.512 + 0.4096 */
    CHECK(roofline_spec_tokens(0.8, 4, &r) == ROOFLINE_OK && fabs(r - 3.3616) < 1e-12);
    /* SLO_BATCH: the step at that batch meets 20 ms, one more sequence does not. */
    CHECK(roofline_slo_batch("llama-3.1-8b", "h100-sxm", 4096, 20, "bf16", "", 1, "typical", 0.9, &r) == ROOFLINE_OK);
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", r, 4096, "bf16", "", 1, "typical", &step) == ROOFLINE_OK && step <= 20);
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", r + 1, 4096, "bf16", "", 1, "typical", &next) == ROOFLINE_OK && next > 20);
    /* _v3: percentile 0 is the closed form; at p99 a closed loop of 2048-token prompts answered up to 4096 tokens. */
    CHECK(roofline_slo_batch_v3("llama-3.1-8b", "h100-sxm", 4096, 20, "bf16", "", 1, "typical", 0.9, 1, 1, 1, 0, 0, &r2) ==
              ROOFLINE_OK && r2 == r);
    CHECK(roofline_slo_batch_v3("llama-3.1-8b", "h100-sxm", 4096, 20, "bf16", "", 1, "typical", 0.9, 1, 1, 1, 99, 2048,
                                &r2) == ROOFLINE_OK && r2 >= 1 && r2 == floor(r2));
    CHECK(roofline_slo_batch_v3("llama-3.1-8b", "h100-sxm", 4096, 20, "bf16", "", 1, "typical", 0.9, 1, 1, 1, 0, 2048,
                                &r2) == ROOFLINE_ERROR_ARGUMENT && strcmp(roofline_errarg(), "prompt_tokens") == 0);
    /* E2E under bound: the prefill alone, then 299 iterations each at least a decode step at the prompt's context. */
    CHECK(roofline_e2e_ms("llama-3.1-8b", "h100-sxm", 2000, 300, 16, "bf16", "", 1, "bound", 0.9, &r) == ROOFLINE_OK);
    CHECK(roofline_ttft_ms("llama-3.1-8b", "h100-sxm", 2000, 1, "bf16", 1, "bound", &ttft) == ROOFLINE_OK);
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", 16, 2000, "bf16", "", 1, "bound", &step) == ROOFLINE_OK);
    CHECK(r >= ttft + 299 * step && r < ttft + 299 * 2 * step);
    CHECK(roofline_replica_rps("llama-3.1-70b", "h100-sxm", 2000, 300, 500, 50, "fp8", "", 4, "typical", 0.9, &r) == ROOFLINE_OK);
    CHECK(roofline_replica_rps("llama-3.1-70b", "h100-sxm", 2000, 300, 500, 50, "fp8", "", 4, "bound", 0.9, &r2) == ROOFLINE_OK);
    CHECK(r > 0 && r <= r2); /* bound sustains at least what typical does */
    CHECK(roofline_spec_step_ms("llama-3.1-70b", "llama-3.1-8b", "h100-sxm", 8, 2048, 4, 0.7, "fp8", "", 4, "typical", &r) ==
          ROOFLINE_OK);
    CHECK(roofline_step_ms("llama-3.1-70b", "h100-sxm", 8, 2048, "fp8", "", 4, "typical", &step) == ROOFLINE_OK && r < step);
    CHECK(roofline_plan("llama-3.1-70b", 100, 2000, 300, 500, 50, "h100-sxm", "fp8", "", "typical", 0, "", 0.9, &plan) ==
          ROOFLINE_OK);
    CHECK(roofline_array_cols(plan) == 29 && roofline_array_rows(plan) >= 2);
    CHECK(strcmp(roofline_array_text(plan, 0, 18), "engine_tp") == 0);
    CHECK(strcmp(roofline_array_text(plan, 0, 19), "usd_per_month") == 0 &&
          strcmp(roofline_array_text(plan, 0, 20), "usd_per_mtok_blended") == 0);
    /* A month of 730 hours; per million tokens of the load, 2000 prompt and 300 output tokens each of 100 requests/s. */
    CHECK(fabs(roofline_array_number(plan, 1, 19) - 730 * roofline_array_number(plan, 1, 11)) < 1e-6 * roofline_array_number(plan, 1, 19));
    CHECK(fabs(roofline_array_number(plan, 1, 20) * 2300 - roofline_array_number(plan, 1, 12) * 300) <
          1e-9 * roofline_array_number(plan, 1, 12) * 300);
    CHECK(strcmp(roofline_array_text(plan, 0, 0), "gpu") == 0 && strcmp(roofline_array_text(plan, 0, 12), "usd_per_mtok") == 0);
    CHECK(strcmp(roofline_array_text(plan, 0, 16), "capacity_tok_s_per_gpu") == 0);
    /* fp8 in every module: Llama 3.1 70B's published FP8 checkpoint keeps its embedding in 16 bits, so none is this. */
    CHECK(strcmp(roofline_array_text(plan, 0, 17), "checkpoint") == 0 && strcmp(roofline_array_text(plan, 1, 17), "") == 0);
    CHECK(strcmp(roofline_array_text(plan, 1, 0), "h100-sxm") == 0 && strcmp(roofline_array_text(plan, 1, 2), "fp8") == 0);
    CHECK(roofline_array_number(plan, 1, 7) == roofline_array_number(plan, 1, 1) * roofline_array_number(plan, 1, 4));
    CHECK(roofline_array_number(plan, 1, 8) <= 500 && roofline_array_number(plan, 1, 9) <= 50);
    CHECK(roofline_array_number(plan, 1, 16) >= roofline_array_number(plan, 1, 10));
    {
        /* The same plan through _v2 and _v3 at their defaults; then two spare replicas' worth at least. */
        roofline_array *v2 = NULL, *v3 = NULL, *three = NULL;
        size_t i, j;
        CHECK(roofline_plan_v2("llama-3.1-70b", 100, 2000, 300, 500, 50, "h100-sxm", "fp8", "", "typical", 0, "", 0.9,
                               "best", &v2) == ROOFLINE_OK);
        CHECK(roofline_plan_v3("llama-3.1-70b", 100, 2000, 300, 500, 50, "h100-sxm", "fp8", "", "typical", 0, "", 0.9,
                               "best", 1, 1, &v3) == ROOFLINE_OK);
        CHECK(v2 && v3 && roofline_array_rows(v2) == roofline_array_rows(plan) &&
              roofline_array_rows(v3) == roofline_array_rows(plan));
        for (i = 1; v2 && v3 && i < roofline_array_rows(plan); ++i)
            for (j = 0; j < 17; ++j)
                if (!roofline_array_is_text(plan, i, j))
                    CHECK(roofline_array_number(v2, i, j) == roofline_array_number(plan, i, j) &&
                          roofline_array_number(v3, i, j) == roofline_array_number(plan, i, j));
        CHECK(roofline_plan_v3("llama-3.1-70b", 100, 2000, 300, 500, 50, "h100-sxm", "fp8", "", "typical", 0, "", 0.9,
                               "best", 0.5, 3, &three) == ROOFLINE_OK);
        CHECK(three && roofline_array_number(three, 1, 4) >= 3 &&
              roofline_array_number(three, 1, 16) * roofline_array_number(three, 1, 7) >= 2 * 100 * 300 * (1 - 1e-12));
        roofline_array_free(three);
        three = NULL;
        CHECK(roofline_plan_v3("llama-3.1-70b", 100, 2000, 300, 500, 50, "h100-sxm", "fp8", "", "typical", 0, "", 0.9,
                               "best", 0, 1, &three) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(strcmp(roofline_errarg(), "headroom") == 0);
        roofline_array_free(v2);
        roofline_array_free(v3);
        roofline_array_free(three);
    }
    roofline_array_free(plan);
    plan = NULL;
    {
        /* The curve of one layout: rows after the header, fastest first; the front over layouts sustains more. */
        roofline_array *one = NULL, *front = NULL;
        size_t i;
        CHECK(roofline_curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 4, "typical", 1, 1, 1, 0, 0.9, &one) ==
              ROOFLINE_OK);
        CHECK(roofline_array_cols(one) == 10 && roofline_array_rows(one) > 8);
        CHECK(strcmp(roofline_array_text(one, 0, 2), "capacity_tok_s_per_gpu") == 0);
        CHECK(roofline_array_number(one, 1, 3) == 1 && roofline_array_number(one, 2, 3) == 2);
        for (i = 2; i < roofline_array_rows(one); ++i)
            CHECK(roofline_array_number(one, i, 0) >= roofline_array_number(one, i - 1, 0));
        CHECK(roofline_curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 0, "typical", 1, 1, 1, 0, 0.9, &front) ==
              ROOFLINE_OK);
        CHECK(roofline_array_number(front, roofline_array_rows(front) - 1, 2) >=
              roofline_array_number(one, roofline_array_rows(one) - 1, 2));
        {
            /* At p99: the same rows and loads, each TPOT and TTFT a simulation's p99 (above the means here). */
            roofline_array* p99 = NULL;
            CHECK(roofline_curve_v2("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 4, "typical", 1, 1, 1, 0, 0.9, 99,
                                    &p99) == ROOFLINE_OK);
            CHECK(roofline_array_rows(p99) == roofline_array_rows(one));
            for (i = 1; i < roofline_array_rows(p99); ++i) {
                CHECK(roofline_array_number(p99, i, 5) == roofline_array_number(one, i, 5)); /* rps */
                CHECK(roofline_array_number(p99, i, 0) > roofline_array_number(one, i, 0));  /* tpot_ms */
                CHECK(roofline_array_number(p99, i, 4) > roofline_array_number(one, i, 4));  /* ttft_ms */
            }
            roofline_array_free(p99);
            p99 = NULL;
            CHECK(roofline_curve_v2("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 4, "typical", 1, 1, 1, 0, 0.9, 30,
                                    &p99) == ROOFLINE_ERROR_ARGUMENT && p99 == NULL &&
                  strcmp(roofline_errarg(), "percentile") == 0);
        }
        roofline_array_free(one);
        roofline_array_free(front);
        front = NULL;
        CHECK(roofline_curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 0, "typical", 2, 1, 1, 0, 0.9, &front) ==
                  ROOFLINE_ERROR_ARGUMENT &&
              front == NULL && strcmp(roofline_errarg(), "ep") == 0);
    }

    /* Bad input: status, argument, message. */
    CHECK(roofline_plan("llama-3.1-70b", -1, 2000, 300, 500, 50, "", "", "", "typical", 0, "", 0.9, &plan) ==
          ROOFLINE_ERROR_ARGUMENT && plan == NULL);
    CHECK(strcmp(roofline_errarg(), "rps") == 0);
    CHECK(strcmp(roofline_errmsg(), "ROOFLINE_PLAN: argument 'rps': must be greater than zero (got -1)") == 0);
    CHECK(roofline_plan("llama-3.1-70b", 100, 2000, 300, 500, 0.001, "", "", "", "typical", 0, "", 0.9, &plan) ==
          ROOFLINE_ERROR_NO_SOLUTION);
    CHECK(strcmp(roofline_errarg(), "tpot_ms") == 0 && strstr(roofline_errmsg(), "tpot_ms = 0.001") != NULL);
    CHECK(roofline_plan("llama3.1-70b", 100, 2000, 300, 500, 50, "", "", "", "typical", 0, "", 0.9, &plan) ==
          ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(strcmp(roofline_errdetail(), "no model 'llama3.1-70b' in the catalog; did you mean 'llama-3.1-70b'?") == 0);
    CHECK(roofline_plan("llama-3.1-70b", 100, 2000, 300, 500, 50, "", "", "", "typical", 0, "h100-sxm=-1", 0.9, &plan) ==
          ROOFLINE_ERROR_ARGUMENT);
    CHECK(strcmp(roofline_errarg(), "prices") == 0);
    CHECK(roofline_plan("llama-3.1-70b", 100, 2000, 300, 500, 50, "", "", "", "typical", 0, "h100-sxn=2", 0.9, &plan) ==
          ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(strcmp(roofline_errarg(), "prices") == 0 && strstr(roofline_errdetail(), "did you mean 'h100-sxm'?") != NULL);
    CHECK(roofline_plan("llama-3.1-70b", 100, 2000, 300, 500, 50, "", "", "", "typical", 2, "", 0.9, &plan) ==
          ROOFLINE_ERROR_ARGUMENT);
    CHECK(strcmp(roofline_errarg(), "disaggregated") == 0);
    CHECK(roofline_slo_batch("llama-3.1-8b", "h100-sxm", 4096, 0.001, "bf16", "", 1, "typical", 0.9, &r) ==
          ROOFLINE_ERROR_NO_SOLUTION);
    CHECK(strcmp(roofline_errarg(), "tpot_ms") == 0);
    CHECK(roofline_e2e_ms("llama-3.1-8b", "h100-sxm", 2000, 1, 16, "bf16", "", 1, "typical", 0.9, &r) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(strcmp(roofline_errarg(), "output_tokens") == 0);
    CHECK(roofline_replica_rps("llama-70", "h100-sxm", 2000, 300, 500, 50, "bf16", "", 1, "typical", 0.9, &r) ==
          ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(strcmp(roofline_errarg(), "model") == 0);
    CHECK(roofline_cost_per_mtok(2, 0, 1000, &r) == ROOFLINE_ERROR_ARGUMENT && strcmp(roofline_errarg(), "gpus") == 0);
    CHECK(roofline_spec_tokens(1.5, 4, &r) == ROOFLINE_ERROR_ARGUMENT && strcmp(roofline_errarg(), "acceptance") == 0);
    CHECK(roofline_spec_step_ms("llama-3.1-70b", "llama-3.1-8bb", "h100-sxm", 8, 2048, 4, 0.7, "fp8", "", 4, "typical", &r) ==
          ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(strcmp(roofline_errarg(), "draft_model") == 0 && strstr(roofline_errdetail(), "did you mean 'llama-3.1-8b'?") != NULL);
}

static void test_null_pointers(void) {
    roofline_value one = {1, NULL};
    CHECK(roofline_decode_ms(8, 1, 0, 3.35, 989, 128, 2, NULL) == ROOFLINE_ERROR_NULL);
    CHECK(strcmp(roofline_errarg(), "result") == 0);
    CHECK(roofline_bound(0, 1, 989, 3, NULL) == ROOFLINE_ERROR_NULL);
    CHECK(roofline_roof(989, 3.35, 0.1, 1e4, 50, NULL) == ROOFLINE_ERROR_NULL);
    CHECK(roofline_call(NULL, &one, 1, NULL) == ROOFLINE_ERROR_NULL);
    CHECK(roofline_call("ROOFLINE_WEIGHTS_GB", NULL, 1, NULL) == ROOFLINE_ERROR_NULL);
    CHECK(roofline_formula_find(NULL) == NULL);
    CHECK(roofline_array_text(NULL, 0, 0) == NULL);
}

static void test_status_version_table(void) {
    size_t i, j;
    CHECK(strcmp(roofline_status_string(ROOFLINE_OK), "ROOFLINE_OK") == 0);
    CHECK(strcmp(roofline_status_string(ROOFLINE_ERROR_ARGUMENT), "ROOFLINE_ERROR_ARGUMENT") == 0);
    CHECK(strcmp(roofline_status_string(ROOFLINE_ERROR_INTERNAL), "ROOFLINE_ERROR_INTERNAL") == 0);
    CHECK(strcmp(roofline_status_string(ROOFLINE_ERROR_UNKNOWN_ID), "ROOFLINE_ERROR_UNKNOWN_ID") == 0);
    CHECK(ROOFLINE_ERROR_UNKNOWN_ID == 9);
    CHECK(strcmp(roofline_status_string(999), "ROOFLINE_ERROR_UNKNOWN") == 0);
    CHECK(strcmp(roofline_version(), ROOFLINE_VERSION_STRING) == 0);
    CHECK(roofline_version_number() == ROOFLINE_VERSION_NUMBER);

    CHECK(roofline_formula_count() >= 25);
    CHECK(roofline_formula_at(roofline_formula_count()) == NULL);
    for (i = 0; i < roofline_formula_count(); ++i) {
        const roofline_formula_info* f = roofline_formula_at(i);
        CHECK(f != NULL && roofline_formula_find(f->name) == f && roofline_formula_find(f->c_name) == f);
        CHECK(strncmp(f->c_name, "roofline_", 9) == 0);
        for (j = 0; j < f->arg_count; ++j) CHECK(f->args[j]->name != NULL && f->args[j]->description_zh != NULL);
    }
    CHECK(def("ROOFLINE_DECODE_MS", 4) == 989 && roofline_formula_find("ROOFLINE_DECODE_MS")->args[4]->optional);
}

static void test_formatter(void) {
    const roofline_formula_info* decode = roofline_formula_find("ROOFLINE_DECODE_MS");
    const roofline_formula_info* fit = roofline_formula_find("ROOFLINE_FIT_BATCH");
    roofline_arg_info copy = *fit->args[6];
    CHECK(strcmp(roofline_formula_signature(decode), "ROOFLINE_DECODE_MS(params_b; batch; ctx; bw_tbs; [tflops=989]; "
                                                     "[kv_kib_per_token=128]; [bytes_per_param=2])") == 0);
    CHECK(strcmp(roofline_formula_signature(fit), "ROOFLINE_FIT_BATCH(model; gpu; ctx; [weight_dtype=native]; "
                                                  "[kv_dtype=bf16]; [tp=1]; [mem_util=0.9]; [ep=1]; [dp_attention=1]; [pp=1])") == 0);
    CHECK(strcmp(roofline_arg_default_string(fit->args[0]), "") == 0);
    CHECK(strcmp(roofline_arg_default_string(fit->args[4]), "bf16") == 0);
    CHECK(strcmp(roofline_arg_default_string(fit->args[6]), "0.9") == 0);
    CHECK(strcmp(roofline_arg_default_string(decode->args[4]), "989") == 0);
    CHECK(strcmp(roofline_arg_default_string(NULL), "") == 0 && strcmp(roofline_formula_signature(NULL), "") == 0);
    CHECK(strcmp(roofline_arg_default_string(&copy), "") == 0); /* not the library's own struct */
    CHECK(fit->args[4]->default_label == NULL);
}

static void test_why(void) {
    roofline_value fit[3] = {{0, "llama-3-70b"}, {0, "h100-sxm"}, {4096, NULL}};
    roofline_value fit_call[4] = {{0, "ROOFLINE_FIT_BATCH"}, {0, "llama-3-70b"}, {0, "h100-sxm"}, {4096, NULL}};
    roofline_value bad_batch[4] = {{8, NULL}, {-1, NULL}, {0, NULL}, {3.35, NULL}};
    roofline_value typo[4] = {{0, "llama3-70b"}, {0, "h100-sxm"}, {1, NULL}, {0, NULL}};
    const char* why = NULL;
    roofline_array* r = NULL;
    CHECK(roofline_why("ROOFLINE_FIT_BATCH", fit, 3, &why) == ROOFLINE_OK);
    CHECK(strcmp(why, "the weights (141 GB per GPU) do not fit in 0.9 of the 85.52 GB of a 'h100-sxm'") == 0);
    CHECK(roofline_errmsg()[0] == '\0'); /* WHY itself succeeded */
    CHECK(roofline_call("ROOFLINE_WHY", fit_call, 4, &r) == ROOFLINE_OK);
    CHECK(roofline_array_is_text(r, 0, 0) && strcmp(roofline_array_text(r, 0, 0), why) == 0);
    roofline_array_free(r);
    fit[0].text = "llama-3-8b";
    CHECK(roofline_why("ROOFLINE_FIT_BATCH", fit, 3, &why) == ROOFLINE_OK && strcmp(why, "ok") == 0);
    CHECK(roofline_why("ROOFLINE_DECODE_MS", bad_batch, 4, &why) == ROOFLINE_OK);
    CHECK(strcmp(why, "argument 'batch': must be a whole number >= 1 (got -1)") == 0);
    CHECK(roofline_why("ROOFLINE_STEP_MS", typo, 4, &why) == ROOFLINE_OK);
    CHECK(strcmp(why, "argument 'model': no model 'llama3-70b' in this machine's catalog or user folder; did you mean 'llama-3-70b'? "
                      "(see ROOFLINE_MODELS())") == 0);
    CHECK(roofline_why("ROOFLINE_GPUS", NULL, 0, &why) == ROOFLINE_OK && strcmp(why, "ok") == 0);
    CHECK(roofline_why(NULL, NULL, 0, &why) == ROOFLINE_ERROR_NULL && strcmp(roofline_errarg(), "formula") == 0);
    CHECK(roofline_why("ROOFLINE_GPUS", NULL, 1, &why) == ROOFLINE_ERROR_NULL);
    CHECK(roofline_why("ROOFLINE_GPUS", NULL, 0, NULL) == ROOFLINE_ERROR_NULL);
    CHECK(roofline_call("ROOFLINE_WHY", NULL, 0, &r) == ROOFLINE_ERROR_ARITY);
    CHECK(strcmp(roofline_formula_signature(roofline_formula_find("ROOFLINE_WHY")), "ROOFLINE_WHY(formula; arguments...)") == 0);
    CHECK(roofline_formula_find("ROOFLINE_WHY")->args[1]->type == ROOFLINE_TYPE_REST);
}

static void test_nearest(void) {
    const char* commands[] = {"roof", "step", "fit", "ttft", NULL, "formulas"};
    CHECK(roofline_nearest("stpe", commands, 6) == 1);
    CHECK(roofline_nearest("FORMULA", commands, 6) == 5);
    CHECK(roofline_nearest("plot", commands, 6) == -1);
    CHECK(roofline_nearest("stpe", commands, 1) == -1); /* only "roof" */
    CHECK(roofline_nearest("stpe", commands, 0) == -1);
    CHECK(roofline_nearest(NULL, commands, 6) == -1);
    CHECK(roofline_nearest("stpe", NULL, 6) == -1);
}

static const typed_call* typed(const char* name) {
    unsigned i;
    for (i = 0; i < typed_call_count; ++i)
        if (strcmp(typed_calls[i].name, name) == 0) return &typed_calls[i];
    return NULL;
}

/* Three measured decode steps of Llama 3 8B on one H200 (tests/data/calibration/h200-graph.csv), as a table
** argument's text (ROOFLINE_TYPE_TABLE): cells by tabs, rows by line breaks, a header first. */
static const char kMeasured[] =
    "model\tgpu\tweight_dtype\tkv_dtype\ttp\tbatch\tcontext\tmetric\tvalue\n"
    "llama-3-8b\th200\tbf16\tbf16\t1\t1\t1024\tstep_ms\t6.0155\n"
    "llama-3-8b\th200\tbf16\tbf16\t1\t1\t4096\tstep_ms\t7.1348\n"
    "llama-3-8b\th200\tbf16\tbf16\t1\t8\t4096\tstep_ms\t7.4356\n";

/* Two workloads of Llama 3 8B (ROOFLINE_FLEET's table), a header first. */
static const char kWorkloads[] =
    "model\trps\tprompt_tokens\toutput_tokens\tttft_ms\ttpot_ms\tgpu\n"
    "llama-3-8b\t5\t1000\t200\t1000\t50\t\n"
    "llama-3-8b\t2\t4000\t500\t2000\t40\th100-sxm\n";

/* Whether an argument arrives as a text: a text, or a table written as one. */
static int passed_as_text(const roofline_arg_info* a) {
    return a->type == ROOFLINE_TYPE_TEXT || a->type == ROOFLINE_TYPE_TABLE;
}

/* A valid value for a text argument: its default, or an id of the catalog; for a table, kMeasured. */
static const char* valid_text(const roofline_formula_info* f, const roofline_arg_info* a) {
    if (a->type == ROOFLINE_TYPE_TABLE) return strcmp(f->name, "ROOFLINE_FLEET") == 0 ? kWorkloads : kMeasured;
    if (a->optional) return a->default_text;
    if (strcmp(a->name, "model") == 0 || strcmp(a->name, "draft_model") == 0) return "llama-3-8b";
    if (strcmp(a->name, "gpu") == 0) return "h100-sxm";
    if (strcmp(a->name, "field") == 0) return strcmp(f->name, "ROOFLINE_GPU") == 0 ? "hbm_tbs" : "layers";
    return "?";
}

/* A valid required number: 80 GB of memory, an acceptance of 0.5, latency targets of 500 ms, else 8. */
static double valid_number(const roofline_arg_info* a) {
    if (strcmp(a->name, "mem_gb") == 0) return 80;
    if (strcmp(a->name, "acceptance") == 0) return 0.5;
    if (strcmp(a->name, "ttft_ms") == 0 || strcmp(a->name, "tpot_ms") == 0) return 500;
    return 8;
}

/* A valid call of a formula: defaults, catalog ids and valid_number() for other required numbers. */
static void valid_args(const roofline_formula_info* f, roofline_value* args) {
    size_t k;
    for (k = 0; k < f->arg_count; ++k) {
        args[k].text = passed_as_text(f->args[k]) ? valid_text(f, f->args[k]) : NULL;
        args[k].number = f->args[k]->optional ? f->args[k]->default_number : valid_number(f->args[k]);
    }
}

/* "" means the default for kv_dtype (16 bits), and for an optional text whose default is "all" or "catalog"
** (ROOFLINE_PLAN's gpu, weight_dtype and prices); for every other text argument it is an error. */
/* An empty text given for an optional text argument means its default, as if it were left out. */
static int empty_is_default(const roofline_arg_info* a) {
    return a->optional && a->default_text != NULL;
}

typedef union { double number; const char* text; roofline_array* array; } any_result;

/* A formula whose last argument is REST (ROOFLINE_WHY) explains the failures of others instead of failing. */
static int explains_failures(const roofline_formula_info* f) {
    return f->arg_count > 0 && f->args[f->arg_count - 1]->type == ROOFLINE_TYPE_REST;
}

/* The typed function and roofline_call() on the same arguments: same status, same result. */
static int call_both(const roofline_formula_info* info, const typed_call* tc, const roofline_value* args) {
    any_result out;
    roofline_array* r = NULL;
    int st_typed, st_generic;
    out.array = NULL;
    st_typed = tc->call(args, &out);
    st_generic = roofline_call(info->name, args, info->arg_count, &r);
    CHECK(st_typed == st_generic);
    if (st_typed == ROOFLINE_OK && st_generic == ROOFLINE_OK) {
        if (info->result_type == ROOFLINE_TYPE_NUMBER) {
            CHECK(isfinite(out.number) && out.number == roofline_array_number(r, 0, 0));
        } else if (info->result_type == ROOFLINE_TYPE_TEXT) {
            CHECK(strcmp(out.text, roofline_array_text(r, 0, 0)) == 0);
        } else {
            CHECK(roofline_array_rows(out.array) == roofline_array_rows(r) && roofline_array_rows(r) > 0);
            roofline_array_free(out.array);
        }
    } else {
        CHECK(roofline_errmsg()[0] != '\0');
    }
    roofline_array_free(r);
    return st_typed;
}

/* Every function x every argument x NaN, +-infinity, negative, zero, huge, tiny; every text argument x
** empty, unknown, NULL; and NULL results. The typed function and roofline_call() agree on every status
** and result; a non-finite number and an unknown text are refused with ROOFLINE_ERROR_ARGUMENT naming
** the argument; nothing returns a non-finite number. */
static void test_every_function_every_bad_value(void) {
    static const double values[] = {NAN, INFINITY, -INFINITY, -1, 0, 1e308, 1e-308, 0.5, 2, 64};
    static const char* texts[] = {"", "no-such-thing", "llama-3-8b ", "/etc/passwd"};
    size_t f, j, v;
    CHECK(typed_call_count == roofline_formula_count());
    for (f = 0; f < roofline_formula_count(); ++f) {
        const roofline_formula_info* info = roofline_formula_at(f);
        const typed_call* tc = typed(info->name);
        roofline_value args[32];
        CHECK(tc != NULL);
        CHECK(info->arg_count <= sizeof args / sizeof args[0]);
        if (!tc || info->arg_count > sizeof args / sizeof args[0]) continue;
        valid_args(info, args);
        CHECK(tc->call(args, NULL) == ROOFLINE_ERROR_NULL);
        CHECK(call_both(info, tc, args) == ROOFLINE_OK);
        for (j = 0; j < info->arg_count; ++j) {
            if (explains_failures(info)) {
                /* ROOFLINE_WHY: any formula name and any values are explained, never refused */
                valid_args(info, args);
                if (info->args[j]->type == ROOFLINE_TYPE_TEXT) args[j].text = texts[1];
                else args[j].number = NAN;
                CHECK(call_both(info, tc, args) == ROOFLINE_OK);
                continue;
            }
            if (info->args[j]->type == ROOFLINE_TYPE_TABLE) {
                /* A table: no rows (no answer), one cell (too few columns), a row of an unknown model (named with
                ** its row), NULL (refused by the typed function). */
                static const struct { const char* table; int status; const char* reason; } measured[] = {
                    {"", ROOFLINE_ERROR_NO_SOLUTION, "0 measured rows"},
                    {"/etc/passwd", ROOFLINE_ERROR_ARGUMENT, "has 1 column"},
                    {"llama-9b\th200\t\t\t\t1\t1024\tstep_ms\t6\n", ROOFLINE_ERROR_UNKNOWN_ID, "row 1, model: "},
                }, workloads[] = {
                    {"", ROOFLINE_ERROR_NO_SOLUTION, "0 workload rows"},
                    {"/etc/passwd", ROOFLINE_ERROR_ARGUMENT, "has 1 column"},
                    {"llama-9b\t5\t1000\t200\t1000\t50\n", ROOFLINE_ERROR_UNKNOWN_ID, "row 1, model: "},
                };
                const int fleet = strcmp(info->name, "ROOFLINE_FLEET") == 0;
                const size_t count = fleet ? sizeof workloads / sizeof workloads[0] : sizeof measured / sizeof measured[0];
                for (v = 0; v < count; ++v) {
                    const char* const table = fleet ? workloads[v].table : measured[v].table;
                    const int status = fleet ? workloads[v].status : measured[v].status;
                    const char* const reason = fleet ? workloads[v].reason : measured[v].reason;
                    valid_args(info, args);
                    args[j].text = table;
                    CHECK(call_both(info, tc, args) == status);
                    CHECK(strcmp(roofline_errarg(), info->args[j]->name) == 0);
                    CHECK(strstr(roofline_errdetail(), reason) != NULL);
                }
                valid_args(info, args);
                args[j].text = NULL;
                {
                    any_result out;
                    CHECK(tc->call(args, &out) == ROOFLINE_ERROR_NULL && strcmp(roofline_errarg(), info->args[j]->name) == 0);
                }
                continue;
            }
            if (info->args[j]->type == ROOFLINE_TYPE_TEXT) {
                for (v = 0; v < sizeof texts / sizeof texts[0]; ++v) {
                    const int empty_means_default = texts[v][0] == '\0' && empty_is_default(info->args[j]);
                    valid_args(info, args);
                    args[j].text = texts[v];
                    if (call_both(info, tc, args) != ROOFLINE_OK || !empty_means_default) {
                        CHECK(!empty_means_default);
                        CHECK(strcmp(roofline_errarg(), info->args[j]->name) == 0);
                        CHECK(strstr(roofline_errdetail(), texts[v]) != NULL); /* the reason quotes the text */
                    }
                }
                valid_args(info, args);
                args[j].text = NULL; /* a NULL text: refused by the typed function */
                {
                    any_result out;
                    CHECK(tc->call(args, &out) == ROOFLINE_ERROR_NULL && strcmp(roofline_errarg(), info->args[j]->name) == 0);
                }
                continue;
            }
            for (v = 0; v < sizeof values / sizeof values[0]; ++v) {
                int st;
                valid_args(info, args);
                args[j].number = values[v];
                st = call_both(info, tc, args);
                if (!isfinite(values[v])) {
                    CHECK(st == ROOFLINE_ERROR_ARGUMENT && strcmp(roofline_errarg(), info->args[j]->name) == 0);
                    CHECK(strstr(roofline_errmsg(), info->args[j]->name) != NULL);
                }
            }
        }
    }
    {
        /* Text where a number belongs, an empty string, unknown names. */
        roofline_value text = {0, ""};
        roofline_array* r = NULL;
        CHECK(roofline_call("ROOFLINE_WEIGHTS_GB", &text, 1, &r) == ROOFLINE_ERROR_ARGUMENT && r == NULL);
        CHECK(roofline_call("", &text, 1, &r) == ROOFLINE_ERROR_UNKNOWN_FORMULA);
        CHECK(roofline_call("ROOFLINE_", NULL, 0, &r) == ROOFLINE_ERROR_UNKNOWN_FORMULA);
        CHECK(roofline_formula_find("") == NULL && roofline_formula_find("roofline_decode_ms ") == NULL);
    }
}

/* roofline_call_many(): a sweep gives, element by element, what the scalar calls give; a column of one value
** is broadcast; a column of another length, a formula without a number result and a bad element are refused. */
static void test_call_many(void) {
    /* ROOFLINE_DECODE_MS(8; batch; 4096; 3.35) for three batches: by hand, (16e9 B of weights + batch x 4096
    ** tokens x 128 KiB) / 3.35 TB/s, in ms; 15.0328 ms at batch 64 (the article's figure). */
    const roofline_value params = {8, NULL}, ctx = {4096, NULL}, bw = {3.35, NULL};
    const roofline_value batch[3] = {{1, NULL}, {8, NULL}, {64, NULL}};
    const roofline_value* columns[4] = {&params, batch, &ctx, &bw};
    const size_t lengths[4] = {1, 3, 1, 1};
    double ms[3] = {0, 0, 0};
    int statuses[3] = {-1, -1, -1};
    size_t at = 99, i;
    CHECK(roofline_call_many("ROOFLINE_DECODE_MS", columns, lengths, 4, 3, ms, statuses, &at) == ROOFLINE_OK);
    CHECK(at == 3 && strcmp(roofline_errmsg(), "") == 0);
    for (i = 0; i < 3; ++i) {
        double one = 0;
        const double by_hand = (16e9 + batch[i].number * 4096 * 128 * 1024) / 3.35e12 * 1e3;
        CHECK(statuses[i] == ROOFLINE_OK && close_to(ms[i], by_hand));
        CHECK(roofline_decode_ms(8, batch[i].number, 4096, 3.35, 989, 128, 2, &one) == ROOFLINE_OK && ms[i] == one);
    }
    CHECK(fabs(ms[2] - 15.0328) < 1e-4);

    {
        /* Text columns: one model for every element, a GPU per element, a varying batch; statuses NULL. */
        const roofline_value model = {0, "llama-3-8b"}, c = {4096, NULL};
        const roofline_value gpus[2] = {{0, "h100-sxm"}, {0, "a100-sxm-80gb"}};
        const roofline_value batches[2] = {{1, NULL}, {32, NULL}};
        const roofline_value* cols[4] = {&model, gpus, batches, &c};
        const size_t lens[4] = {1, 2, 2, 1};
        double step[2] = {0, 0}, one = 0;
        CHECK(roofline_call_many("roofline_step_ms", cols, lens, 4, 2, step, NULL, NULL) == ROOFLINE_OK);
        CHECK(roofline_step_ms("llama-3-8b", "h100-sxm", 1, 4096, "bf16", "bf16", 1, "bound", &one) == ROOFLINE_OK &&
              step[0] == one);
        CHECK(roofline_step_ms("llama-3-8b", "a100-sxm-80gb", 32, 4096, "bf16", "bf16", 1, "bound", &one) == ROOFLINE_OK &&
              step[1] == one);
    }
    {
        /* Every column of length 1 and n > 1: the same call n times. n = 0: nothing, and success. */
        const size_t ones[4] = {1, 1, 1, 1};
        double r[2] = {0, 0};
        CHECK(roofline_call_many("ROOFLINE_DECODE_MS", columns, ones, 4, 2, r, NULL, NULL) == ROOFLINE_OK &&
              r[0] == ms[0] && r[1] == ms[0]);
        CHECK(roofline_call_many("ROOFLINE_DECODE_MS", columns, ones, 4, 0, NULL, NULL, NULL) == ROOFLINE_OK);
    }
    {
        /* A column whose length is neither 1 nor n: the call as a whole fails, naming the argument. */
        const size_t wrong[4] = {1, 3, 1, 1};
        double r[2] = {-1, -1};
        int st[2] = {-1, -1};
        at = 99;
        CHECK(roofline_call_many("ROOFLINE_DECODE_MS", columns, wrong, 4, 2, r, st, &at) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(strcmp(roofline_errarg(), "batch") == 0 && strstr(roofline_errmsg(), "ROOFLINE_DECODE_MS: argument 'batch'") != NULL);
        CHECK(at == 2 && r[0] == -1 && st[0] == -1 && st[1] == -1);
    }
    {
        /* A bad element (batch 0.5) between good ones: its status, the first failure's message, the others computed. */
        const roofline_value bad[3] = {{1, NULL}, {0.5, NULL}, {64, NULL}};
        const roofline_value* cols[4] = {&params, bad, &ctx, &bw};
        double r[3] = {-1, -1, -1};
        int st[3] = {-1, -1, -1};
        at = 99;
        CHECK(roofline_call_many("ROOFLINE_DECODE_MS", cols, lengths, 4, 3, r, st, &at) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(at == 1 && st[0] == ROOFLINE_OK && st[1] == ROOFLINE_ERROR_ARGUMENT && st[2] == ROOFLINE_OK);
        CHECK(r[0] == ms[0] && r[1] == -1 && r[2] == ms[2]);
        CHECK(strcmp(roofline_errarg(), "batch") == 0 &&
              strcmp(roofline_errmsg(), "ROOFLINE_DECODE_MS: argument 'batch': must be a whole number >= 1 (got 0.5)") == 0);
        /* statuses NULL: it stops at the first failure. */
        r[2] = -1;
        CHECK(roofline_call_many("ROOFLINE_DECODE_MS", cols, lengths, 4, 3, r, NULL, &at) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(at == 1 && r[2] == -1);
    }
    {
        /* A text where a number belongs in one element: that element's status, as roofline_call() gives it. */
        const roofline_value mixed[2] = {{8, NULL}, {0, "eight"}};
        const roofline_value* cols[4] = {&params, mixed, &ctx, &bw};
        const size_t lens[4] = {1, 2, 1, 1};
        double r[2];
        int st[2] = {-1, -1};
        CHECK(roofline_call_many("ROOFLINE_DECODE_MS", cols, lens, 4, 2, r, st, &at) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(strcmp(roofline_errarg(), "batch") == 0 && strstr(roofline_errmsg(), "must be a number") != NULL);
        CHECK(at == 1 && st[0] == ROOFLINE_OK && st[1] == ROOFLINE_ERROR_ARGUMENT &&
              r[0] == by_name("ROOFLINE_DECODE_MS", (double[]){8, 8, 4096, 3.35}, 4));
    }
    {
        /* Whole-call errors: an array formula, an unknown name, a wrong arity, NULL pointers. */
        const roofline_value tflops = {989, NULL}, tbs = {3.35, NULL};
        const roofline_value* cols[2] = {&tflops, &tbs};
        const size_t lens[2] = {1, 1};
        double r[1];
        CHECK(roofline_call_many("ROOFLINE_ROOF", cols, lens, 2, 1, r, NULL, NULL) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(strcmp(roofline_errarg(), "name") == 0 && strstr(roofline_errmsg(), "ROOFLINE_ROOF") != NULL);
        CHECK(roofline_call_many("ROOFLINE_BOUND", columns, lengths, 4, 1, r, NULL, NULL) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(roofline_call_many("ROOFLINE_BALANCE", cols, lens, 2, 1, r, NULL, NULL) == ROOFLINE_OK && close_to(r[0], 989 / 3.35));
        CHECK(roofline_call_many("ROOFLINE_BALANCEX", cols, lens, 2, 1, r, NULL, NULL) == ROOFLINE_ERROR_UNKNOWN_FORMULA);
        CHECK(strstr(roofline_errmsg(), "ROOFLINE_BALANCE") != NULL);
        CHECK(roofline_call_many("ROOFLINE_BALANCE", cols, lens, 1, 1, r, NULL, NULL) == ROOFLINE_ERROR_ARITY);
        CHECK(roofline_call_many(NULL, cols, lens, 2, 1, r, NULL, NULL) == ROOFLINE_ERROR_NULL);
        CHECK(roofline_call_many("ROOFLINE_BALANCE", NULL, lens, 2, 1, r, NULL, NULL) == ROOFLINE_ERROR_NULL);
        CHECK(roofline_call_many("ROOFLINE_BALANCE", cols, NULL, 2, 1, r, NULL, NULL) == ROOFLINE_ERROR_NULL);
        CHECK(roofline_call_many("ROOFLINE_BALANCE", cols, lens, 2, 1, NULL, NULL, NULL) == ROOFLINE_ERROR_NULL);
        CHECK(strcmp(roofline_errarg(), "results") == 0);
    }
}

/* The user folder tests/data/user-folder: a catalog, a model, a config that does not load, a file not .json. */
static void test_user_folder(void) {
    size_t added = 99;
    double r = -1;
    CHECK(roofline_catalog_load_user_folder(ROOFLINE_TEST_USER_FOLDER "/no-such-folder", &added) == ROOFLINE_OK && added == 0);
    CHECK(strcmp(roofline_errmsg(), "") == 0);
    CHECK(roofline_catalog_load_user_folder(ROOFLINE_TEST_USER_FOLDER, &added) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(added == 2); /* lab.json's GPU and c-api-8b.json; broken.json did not load */
    CHECK(strncmp(roofline_errdetail(), ROOFLINE_TEST_USER_FOLDER "/models/broken.json: ",
                  strlen(ROOFLINE_TEST_USER_FOLDER "/models/broken.json: ")) == 0);
    CHECK(strchr(roofline_errdetail(), '\n') == NULL); /* one line: one file failed */
    CHECK(strncmp(roofline_errmsg(), "roofline_catalog_load_user_folder: " ROOFLINE_TEST_USER_FOLDER "/models/broken.json: ",
                  strlen("roofline_catalog_load_user_folder: " ROOFLINE_TEST_USER_FOLDER "/models/broken.json: ")) == 0);
    CHECK(roofline_gpu("c-api-lab-gpu", "hbm_tbs", &r) == ROOFLINE_OK && r == 0.5);
    {
        double mine = 0, builtin = 1;
        CHECK(roofline_step_ms("c-api-8b", "h100-sxm", 16, 2048, "bf16", "", 1, "typical", &mine) == ROOFLINE_OK);
        CHECK(roofline_step_ms("llama-3-8b", "h100-sxm", 16, 2048, "bf16", "", 1, "typical", &builtin) == ROOFLINE_OK);
        CHECK(mine == builtin);
    }
    CHECK(roofline_catalog_load_user_folder(ROOFLINE_TEST_USER_FOLDER, NULL) == ROOFLINE_ERROR_ARGUMENT);
}

/* A checkpoint's hf_quant_config.json beside its config.json; ROOFLINE_CACHE_GB; weight format native. Since 0.5. */
static void test_checkpoints(void) {
    static const char config[] =
        "{\"model_type\": \"gpt_oss\", \"hidden_size\": 2880, \"num_hidden_layers\": 2, \"num_attention_heads\": 64,"
        " \"num_key_value_heads\": 8, \"head_dim\": 64, \"intermediate_size\": 2880, \"vocab_size\": 201088,"
        " \"num_local_experts\": 32, \"experts_per_token\": 4, \"sliding_window\": 128,"
        " \"layer_types\": [\"sliding_attention\", \"full_attention\"]}";
    static const char nvfp4[] = "{\"quantization\": {\"quant_algo\": \"NVFP4\", \"group_size\": 16}}";
    double bf16 = 0, fp4 = 0, native = 0, gb = 0;
    CHECK(roofline_model_import_hf_checkpoint("c-api-oss", config, NULL) == ROOFLINE_OK);
    CHECK(roofline_step_ms("c-api-oss", "h100-sxm", 1, 100, "", "", 1, "bound", &bf16) == ROOFLINE_OK);
    CHECK(roofline_model_import_hf_checkpoint("c-api-oss", config, nvfp4) == ROOFLINE_OK);
    CHECK(roofline_step_ms("c-api-oss", "h100-sxm", 1, 100, "native", "", 1, "bound", &native) == ROOFLINE_OK);
    CHECK(roofline_step_ms("c-api-oss", "h100-sxm", 1, 100, "nvfp4", "", 1, "bound", &fp4) == ROOFLINE_OK);
    CHECK(native < bf16 && native > fp4); /* NVFP4 but the embedding and lm_head, in 16 bits */
    CHECK(roofline_model_import_hf_checkpoint("c-api-oss", config, "{\"quantization\": {\"quant_algo\": \"W4A16\"}}") ==
          ROOFLINE_ERROR_ARGUMENT);
    CHECK(strstr(roofline_errmsg(), "'hf_quant_config.json quantization.quant_algo' is not supported") != NULL);
    CHECK(roofline_model_import_hf_checkpoint("c-api-oss", NULL, nvfp4) == ROOFLINE_ERROR_NULL);
    /* One layer capped at 128 tokens, one growing: K and V of 8 heads of 64, 16 bits; 4 sequences, GB. */
    CHECK(roofline_cache_gb("c-api-oss", 4, 1000, "", 1, &gb) == ROOFLINE_OK);
    CHECK(close_to(gb, 4 * 2 * 8 * 64 * 2 * (1000 + 128) / 1e9));
    CHECK(roofline_cache_gb("c-api-oss", 4, 1000, "fp8", 3, &gb) == ROOFLINE_ERROR_ARGUMENT); /* 64 heads, tp 3 */
    CHECK(roofline_step_ms("c-api-oss", "h100-sxm", 1, 100, "nativ", "", 1, "bound", &fp4) == ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(strstr(roofline_errmsg(), "did you mean 'native'?") != NULL);
}

/* A profile text in place of a profile's name (docs/formulas.md, "Profiles as text"): computed as the profile
** it describes; a tampered one is refused naming the parameter. */
static void test_profile_text(void) {
    /* typical's own parameters as profiles.json has them (refitting typical changes them: copy them here) */
    const char* text = "fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.8693, mfu=0.5781, link=0.5, step_ms=0.0, "
                       "allreduce_us=4.748, mfu_tokens=47.1189, attn=1.0, layer_us=69.1615, alltoall_us=10.0, "
                       "expert_us=0.0, ep_imbalance=1.11, attn_compute=0.5899, moe_layer=1, sparse_gather=1, "
                       "state_compute=0.02975, overlap_ep=0";
    const double fixed_ms = 0.0 + 32 * 69.1615 / 1e3; /* a step's fixed costs: Llama 3.1 8B has 32 layers */
    double typical = 0, fitted = 0, other = 0, r = 0;
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1, "typical", &typical) == ROOFLINE_OK);
    /* typical's own parameters (profiles.json) as text: the same step */
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1, text, &fitted) == ROOFLINE_OK);
    CHECK(close_to(fitted, typical));
    /* a MoE model's step too (moe_layer: its MoE layers' measured fixed time) */
    CHECK(roofline_step_ms("qwen3-30b-a3b", "h100-sxm", 8, 4096, "bf16", "", 1, "typical", &typical) == ROOFLINE_OK);
    CHECK(roofline_step_ms("qwen3-30b-a3b", "h100-sxm", 8, 4096, "bf16", "", 1, text, &fitted) == ROOFLINE_OK);
    CHECK(close_to(fitted, typical));
    /* a Gated DeltaNet model's long prefill too (state_compute: its recurrence at the measured kernels' rate) */
    CHECK(roofline_ttft_ms("qwen3-next-80b-a3b", "h200", 32768, 1, "native", 4, "typical", &typical) == ROOFLINE_OK);
    CHECK(roofline_ttft_ms("qwen3-next-80b-a3b", "h200", 32768, 1, "native", 4, text, &fitted) == ROOFLINE_OK);
    CHECK(close_to(fitted, typical));
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1, "typical", &typical) == ROOFLINE_OK);
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1,
                           "fit(x): bw=0.5, mfu=0.5, link=0.5, step_ms=0, allreduce_us=0, ep_imbalance=1, overlap_ep=0",
                           &other) == ROOFLINE_OK);
    CHECK(other > 1.5 * (typical - fixed_ms));
    CHECK(roofline_step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1,
                           "fit(x): bw=1.7, mfu=0.5, link=0.5, step_ms=0, allreduce_us=0, ep_imbalance=1, overlap_ep=0",
                           &r) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(strcmp(roofline_errarg(), "profile") == 0);
    CHECK(strstr(roofline_errmsg(), "'bw'") != NULL);
}

/* ROOFLINE_CALIBRATE through the typed functions: a profile text that every formula takes, each row's
** predictions, and a named profile from a catalog (since 0.8). */
static void test_calibrate(void) {
    const char* fitted = NULL;
    char text[1024];
    roofline_array* rows = NULL;
    double with_text = 0, by_name = 0, measured_like = 0;
    size_t added = 0;
    char catalog[2048];
    CHECK(roofline_calibrate(kMeasured, "", &fitted) == ROOFLINE_OK);
    CHECK(fitted != NULL && strncmp(fitted, "fit(typical; n=3; ", 18) == 0);
    snprintf(text, sizeof text, "%s", fitted);
    CHECK(roofline_step_ms("llama-3-8b", "h200", 8, 4096, "bf16", "bf16", 1, text, &with_text) == ROOFLINE_OK);
    CHECK(fabs(with_text - 7.4356) < 0.05 * 7.4356); /* the fit predicts the row it was fitted on */
    CHECK(roofline_calibrate_rows(kMeasured, "typical", &rows) == ROOFLINE_OK);
    CHECK(roofline_array_rows(rows) == 4 && roofline_array_cols(rows) == 9);
    CHECK(strcmp(roofline_array_text(rows, 0, 0), "row") == 0 && roofline_array_number(rows, 3, 0) == 4);
    CHECK(roofline_array_number(rows, 3, 4) == 7.4356 && roofline_array_number(rows, 3, 5) == with_text);
    roofline_array_free(rows);
    /* Too few rows: no answer, and why. */
    CHECK(roofline_calibrate("llama-3-8b\th200\t\t\t\t1\t1024\tstep_ms\t6\n", "", &fitted) == ROOFLINE_ERROR_NO_SOLUTION);
    CHECK(strstr(roofline_errmsg(), "1 measured row: a fit needs at least 3") != NULL);
    /* A named profile in a catalog: every formula takes its name. */
    snprintf(catalog, sizeof catalog, "{\"profiles\": [{\"id\": \"c-lab\", \"profile\": \"%s\"}]}", text);
    CHECK(roofline_catalog_add_json(catalog, &added) == ROOFLINE_OK && added == 1);
    CHECK(roofline_step_ms("llama-3-8b", "h200", 8, 4096, "bf16", "bf16", 1, "C-Lab", &by_name) == ROOFLINE_OK);
    CHECK(by_name == with_text);
    /* A bad profile refuses the whole file, naming the entry and the parameter: its GPU is not added. */
    CHECK(roofline_catalog_add_json("{\"gpus\": [{\"id\": \"c-lab-gpu\", \"tflops\": {\"bf16\": 10}, \"hbm_tbs\": 1, "
                                    "\"hbm_gb\": 8}], \"profiles\": [{\"id\": \"c-bad\", \"profile\": \"fit(x): bw=2\"}]}",
                                    &added) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(strstr(roofline_errmsg(), "profiles[0]") != NULL && strstr(roofline_errmsg(), "'bw'") != NULL);
    CHECK(roofline_step_ms("llama-3-8b", "c-lab-gpu", 1, 0, "bf16", "", 1, "bound", &measured_like) ==
          ROOFLINE_ERROR_UNKNOWN_ID);
    CHECK(roofline_catalog_add_json("{\"profiles\": [{\"id\": \"typical\", \"profile\": \"x\"}]}", &added) ==
          ROOFLINE_ERROR_ARGUMENT);
    CHECK(strstr(roofline_errmsg(), "built-in") != NULL);
}

int main(void) {
    test_energy();
    test_typed_functions_match_the_table();
    test_text_and_array_results();
    test_bad_input();
    test_planner();
    test_simulate();
    test_null_pointers();
    test_status_version_table();
    test_nearest();
    test_formatter();
    test_why();
    test_every_function_every_bad_value();
    test_call_many();
    test_user_folder();
    test_checkpoints();
    test_profile_text();
    test_calibrate();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

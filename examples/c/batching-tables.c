/*
** The article's two batching tables, computed by libroofline through its C ABI.
**
** An 8B dense BF16 model on an H100 SXM (989 TFLOP/s dense BF16, 3.35 TB/s): one decode step reads
** the weights once for the whole batch, and every sequence reads its own KV cache.
*/
#include <roofline.h>
#include <stdio.h>
#include <stdlib.h>

static const double kParamsB = 8;       /* billions */
static const double kTflops = 989;      /* H100 SXM, BF16 dense */
static const double kTbs = 3.35;        /* H100 SXM HBM3 */
static const double kKvKib = 128;       /* KiB per token, an 8B GQA model */
static const double kBytesPerParam = 2; /* BF16 */
static const double kBytesPerGb = 1e9;  /* the library's GB */

/* Exits with the library's message when a call fails. */
static void check(int status) {
    if (status != ROOFLINE_OK) {
        fprintf(stderr, "batching-tables: %s: %s\n", roofline_status_string(status), roofline_errmsg());
        exit(1);
    }
}

static void table(const char* title, double ctx) {
    static const double batches[] = {1, 64};
    double weights_bytes, weights_ms, critical;
    size_t i;
    int status;

    /* The weights a step reads: the bytes of a step without KV (the same for every batch). */
    check(roofline_decode_bytes(kParamsB, 1, 0, kKvKib, kBytesPerParam, &weights_bytes));
    check(roofline_memory_ms(weights_bytes, kTbs, &weights_ms));

    printf("%s\n", title);
    printf("| batch | weights read | KV read   | compute  | step bound | system throughput |\n");
    printf("|------:|-------------:|----------:|---------:|-----------:|------------------:|\n");
    for (i = 0; i < sizeof batches / sizeof batches[0]; ++i) {
        const double batch = batches[i];
        double kv_gb, kv_ms, flop, compute_ms, step_ms, tokens_per_s;
        check(roofline_kv_gb(batch, ctx, kKvKib, &kv_gb));
        check(roofline_memory_ms(kv_gb * kBytesPerGb, kTbs, &kv_ms));
        check(roofline_decode_flop(kParamsB, batch, &flop));
        check(roofline_compute_ms(flop, kTflops, &compute_ms));
        check(roofline_decode_ms(kParamsB, batch, ctx, kTbs, kTflops, kKvKib, kBytesPerParam, &step_ms));
        check(roofline_decode_toks(kParamsB, batch, ctx, kTbs, kTflops, kKvKib, kBytesPerParam, &tokens_per_s));
        printf("| %5.0f | %9.2f ms | %6.2f ms | %5.3f ms | %7.2f ms | %11.0f tok/s |\n", batch, weights_ms, kv_ms,
               compute_ms, step_ms, tokens_per_s);
    }
    status = roofline_critical_batch(kParamsB, ctx, kTflops, kTbs, kKvKib, kBytesPerParam, &critical);
    if (status == ROOFLINE_OK)
        printf("Compute bound from a batch of %.0f sequences.\n\n", critical);
    else if (status == ROOFLINE_ERROR_NO_SOLUTION)
        printf("No batch is compute bound: each sequence's KV read outweighs its compute.\n\n");
    else
        check(status);
}

int main(void) {
    printf("8B dense model, BF16, H100 SXM (%.0f TFLOP/s, %.2f TB/s), libroofline %s\n\n", kTflops, kTbs,
           roofline_version());
    table("Decode without KV (the article's first table)", 0);
    table("Decode with 4096 tokens of KV per user (128 KiB/token)", 4096);
    return 0;
}

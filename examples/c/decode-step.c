#include <roofline.h>
#include <stdio.h>

int main(void) {
    /* Trailing optional arguments left out: they take the formula's defaults. */
    const roofline_value args[] = {{8, NULL}, {64, NULL}, {4096, NULL}, {3.35, NULL}};
    roofline_array* result = NULL;
    int rc = roofline_call("ROOFLINE_DECODE_MS", args, 4, &result);
    if (rc != ROOFLINE_OK) {
        fprintf(stderr, "%s: %s\n", roofline_status_string(rc), roofline_errmsg());
        return 1;
    }
    printf("one decode step takes at least %.2f ms\n", roofline_array_number(result, 0, 0));
    roofline_array_free(result);
    return 0;
}

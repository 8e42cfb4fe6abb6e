/*
** print_examples: calls every formula's example (roofline_formula_info.example) through roofline_call() and
** prints each cell of its result, one line per cell, numbers with %.17g:
**
**   ROOFLINE_DECODE_MS(8; 64; 4096; 3.35)
**   ROOFLINE_DECODE_MS [0,0] number 12.345678901234567
**   ROOFLINE_WHY(...) [1,0] text "..."
**   ROOFLINE_X error 3 <message>
**
** The plain build runs it natively and, built for Windows, under Wine, and compares the two
** (tests/windows/compare_examples.py): the same table and the same results, within a relative tolerance.
*/
#include <roofline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

static char* trim(char* s) {
    char* end;
    while (*s == ' ') ++s;
    end = s + strlen(s);
    while (end > s && end[-1] == ' ') *--end = '\0';
    return s;
}

/* An inline array "{\"a\"; 1 | \"b\"; 2}" (Calc's: cells by ';', rows by '|') rewritten in place as a table
** argument's text (ROOFLINE_TYPE_TABLE: cells by tabs, rows by line breaks); returns it. */
static char* inline_array_text(char* array) {
    char *in = array + 1, *out = array;
    int quoted = 0;
    for (; *in && (quoted || *in != '}'); ++in) {
        if (*in == '"') quoted = !quoted;
        else if (quoted) *out++ = *in;
        else if (*in == ';') *out++ = '\t';
        else if (*in == '|') *out++ = '\n';
        else if (*in != ' ') *out++ = *in;
    }
    *out = '\0';
    return array;
}

/* Calls "NAME(1; 2e3; \"text\"; {inline; array})", whose arguments are plain numbers, quoted texts or inline
** arrays; prints its cells. */
static int print_example(const char* example) {
    char buffer[4096];
    char *open, *close, *item, *next;
    roofline_value args[MAX_ARGS];
    size_t nargs = 0, rows, cols, r, c;
    roofline_array* result = NULL;
    int status;

    if (strlen(example) >= sizeof buffer) return fprintf(stderr, "example too long: %s\n", example), 1;
    strcpy(buffer, example);
    open = strchr(buffer, '(');
    close = strrchr(buffer, ')');
    if (!open || !close || close < open) return fprintf(stderr, "not a call: %s\n", example), 1;
    *open = '\0';
    *close = '\0';
    for (item = open + 1; item; item = next) {
        item = trim(item);
        /* the next ';' after an inline array's closing brace */
        next = strchr(*item == '{' && strchr(item, '}') ? strchr(item, '}') : item, ';');
        if (next) *next++ = '\0';
        item = trim(item);
        if (*item == '\0') continue;
        if (nargs == MAX_ARGS) return fprintf(stderr, "too many arguments: %s\n", example), 1;
        if (*item == '{') {
            args[nargs].number = 0;
            args[nargs].text = inline_array_text(item);
        } else if (*item == '"') {
            item[strlen(item) - 1] = '\0';
            args[nargs].number = 0;
            args[nargs].text = item + 1;
        } else {
            args[nargs].number = strtod(item, NULL);
            args[nargs].text = NULL;
        }
        ++nargs;
    }
    status = roofline_call(buffer, args, nargs, &result);
    if (status != ROOFLINE_OK) {
        printf("%s error %d %s\n", buffer, status, roofline_errmsg());
        return 0;
    }
    rows = roofline_array_rows(result);
    cols = roofline_array_cols(result);
    for (r = 0; r < rows; ++r)
        for (c = 0; c < cols; ++c) {
            if (roofline_array_is_text(result, r, c))
                printf("%s [%lu,%lu] text \"%s\"\n", buffer, (unsigned long)r, (unsigned long)c,
                       roofline_array_text(result, r, c));
            else
                printf("%s [%lu,%lu] number %.17g\n", buffer, (unsigned long)r, (unsigned long)c,
                       roofline_array_number(result, r, c));
        }
    roofline_array_free(result);
    return 0;
}

int main(void) {
    size_t i, n = roofline_formula_count();
    int failed = 0;
    printf("libroofline %s, %lu formulas\n", roofline_version(), (unsigned long)n);
    for (i = 0; i < n; ++i) {
        const roofline_formula_info* f = roofline_formula_at(i);
        printf("%s\n", f->example);
        failed |= print_example(f->example);
    }
    return failed || n == 0;
}

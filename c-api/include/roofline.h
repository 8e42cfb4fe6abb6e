/*
** roofline.h: the C interface of libroofline.
**
** libroofline estimates how fast LLM inference can possibly run on a GPU from the roofline model:
** a step takes at least max(FLOPs / peak compute, bytes moved / memory bandwidth).
**
** This header is the library's only public interface. It is plain C99, usable from C and C++, and
** its ABI is stable within a major version (the SONAME is libroofline.so.<major>).
**
** CONVENTIONS
**
**   One function per spreadsheet formula: ROOFLINE_DECODE_MS is roofline_decode_ms(). It takes
**   every argument of the formula in formula order, optional ones included (pass the documented
**   default), numbers as double and text as NUL-terminated UTF-8. It returns a status
**   (ROOFLINE_OK is 0) and writes its result through its last parameter, which is written only on
**   success.
**
**   C has no default arguments. A caller in C, Go, Rust or any FFI that wants a formula's defaults
**   calls it by name, roofline_call("ROOFLINE_DECODE_MS", args, 4, &result), with its trailing
**   optional arguments left out: the library fills them in from the formula table, as a spreadsheet
**   does, and the call keeps its meaning when the formula gains an optional argument later.
**
**   Units are the same everywhere:
**     parameters            billions (8 = 8e9 parameters)
**     bandwidth             TB/s = 1e12 bytes/s
**     compute               TFLOP/s = 1e12 FLOP/s, dense (never the structured-sparsity figure)
**     flops, bytes          plain FLOP and bytes (16e9, not 16) in the primitives
**     memory results        GB = 1e9 bytes
**     KV cache per token    KiB = 1024 bytes per token, all layers, K and V together
**     time                  milliseconds
**     throughput            tokens per second
**
**   Bad input (NaN, infinity, a negative or zero size where that has no meaning, a fraction where
**   a whole number belongs) gives ROOFLINE_ERROR_ARGUMENT; a text that names no catalog entry (a
**   model, a GPU, a dtype, a profile, a field) gives ROOFLINE_ERROR_UNKNOWN_ID, with the nearest id
**   suggested when one is close. roofline_errmsg() names the argument, roofline_errdetail() says why.
**   No function returns a NaN or an infinity as a result.
**
** MEMORY
**
**   Every const char* the library returns points to static storage that lives as long as the
**   library is loaded, except roofline_errmsg(), roofline_errarg() and roofline_errdetail() (valid until the calling
**   thread's next call into the library) and the texts of a roofline_array (valid until it is freed).
**   The only objects the caller owns are roofline_array results: free each with roofline_array_free().
**
** THREADS
**
**   Every function may be called from any number of threads at once. The library has global state, and
**   hosts change it at run time: the catalog. roofline_model_import_hf_config(), roofline_catalog_add_json()
**   and roofline_catalog_load_user_folder() add models, GPUs and named profiles to it (an id added again
**   replaces the earlier entry); the catalog is locked while they do, and a formula running in another
**   thread at that moment computes with the entry it looked up, before or after the change, never with a
**   part of one (nothing is removed). Besides, the library keeps caches that never change a result (the
**   models read from config.json texts, the profiles read from profile texts, each thread's last
**   resolved deployment), each behind a lock or per thread. The last error is kept per thread.
**
** HOW THE ABI GROWS
**
**   Within a major version (the SONAME, libroofline.so.<major>) the library only grows: a program
**   built against an older roofline.h keeps working, unchanged and unrecompiled, with a newer
**   libroofline. The rules, in the manner of sqlite3.h and zstd.h:
**
**   1. A released function never changes: not its name, its parameters, its result or its meaning.
**      A new parameter means a new function beside the old one, named with a suffix _v2, _v3, ...
**      (a formula that gains an optional argument keeps its released typed function and gets a _v2
**      one). roofline_call() by name is the open-ended path: it takes a formula's arguments as a
**      list, so a caller that leaves out an argument added later gets its default.
**   2. Structs the library allocates and hands out by pointer (roofline_formula_info,
**      roofline_arg_info, and the opaque roofline_array) may gain fields at their end in a minor
**      version; the fields they have keep their place and meaning. Reach them only through the
**      library's pointers: never copy one by value, allocate one, or step through an array of them
**      (roofline_formula_info.args is an array of pointers for that reason). Each field added later
**      says "since X.Y" here, and is there when the library that is loaded says so at run time:
**      roofline_version_number() >= X*10000 + Y*100 (ROOFLINE_VERSION_NUMBER is the header's version,
**      which may be newer than the library's), e.g.
**          if (roofline_version_number() >= 400) use(info->field_added_in_0_4);
**   3. Structs the caller allocates (roofline_value) never change: their size and layout are built into
**      every caller. A new kind of argument means a new struct and new functions.
**   4. New status codes (roofline_status) and type codes (roofline_type) may be appended; values never
**      change meaning. Treat a nonzero status you do not know as an error (roofline_status_string()
**      names it, "ROOFLINE_ERROR_UNKNOWN" when the library is older), and skip a formula that has an
**      argument or a result of a type you do not know.
**   5. A third language of descriptions comes without changing a struct: a function that looks a text
**      up by locale, e.g. roofline_formula_description(formula, "ja") and
**      roofline_arg_description(arg, "ja"), giving static text (English where the locale has none).
**      description_en and description_zh stay, filled as today, for the programs that read them.
**   6. Nothing is removed within a major version: a superseded function or field stays and says what
**      replaced it (roofline_arg_info.default_label: NULL since 0.3). Removing anything, or changing a
**      signature or a field that exists, needs a new major version (a new SONAME).
**
**   The test "c-api: ABI compatible with the committed baseline" (tests/c-api/check_abi.sh) checks 1, 2, 3
**   and 6 with abidiff against c-api/abi/libroofline.so.<major>.abi: added functions and fields appended
**   to roofline_formula_info or roofline_arg_info pass; a removed function, a changed signature, a
**   changed roofline_value, a field inserted before others or changed fails. The baseline is refreshed
**   (scripts/update-abi) only for additions.
*/
#ifndef ROOFLINE_H
#define ROOFLINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Version ---------------------------------------------------------------------------------- */

#define ROOFLINE_VERSION_MAJOR 0
#define ROOFLINE_VERSION_MINOR 16
#define ROOFLINE_VERSION_PATCH 0
/** MAJOR*10000 + MINOR*100 + PATCH, for comparisons in the preprocessor. */
#define ROOFLINE_VERSION_NUMBER \
    (ROOFLINE_VERSION_MAJOR * 10000 + ROOFLINE_VERSION_MINOR * 100 + ROOFLINE_VERSION_PATCH)
#define ROOFLINE_VERSION_STRING "0.16.0"

#if defined(_WIN32) && defined(ROOFLINE_BUILDING)
#define ROOFLINE_API __declspec(dllexport)
#elif defined(_WIN32)
#define ROOFLINE_API __declspec(dllimport)
#elif defined(__GNUC__)
#define ROOFLINE_API __attribute__((visibility("default")))
#else
#define ROOFLINE_API
#endif

/** The version of the library that is loaded, "MAJOR.MINOR.PATCH" (may differ from the header's). */
ROOFLINE_API const char* roofline_version(void);
/** The version of the library that is loaded, as ROOFLINE_VERSION_NUMBER. */
ROOFLINE_API int roofline_version_number(void);

/* ---- Status ----------------------------------------------------------------------------------- */

/** What every function returns. New codes may be appended; treat any nonzero value as an error. */
typedef enum roofline_status {
    ROOFLINE_OK = 0,                    /**< success: the result was written */
    ROOFLINE_ERROR_ARGUMENT = 1,        /**< an argument is NaN, infinite, out of its domain or of the wrong type */
    ROOFLINE_ERROR_NO_SOLUTION = 2,     /**< valid inputs, but the question has no answer (e.g. no batch is compute bound) */
    ROOFLINE_ERROR_RANGE = 3,           /**< the result is too large to represent */
    ROOFLINE_ERROR_NULL = 4,            /**< a required pointer is NULL */
    ROOFLINE_ERROR_UNKNOWN_FORMULA = 5, /**< roofline_call(): no formula of that name */
    ROOFLINE_ERROR_ARITY = 6,           /**< roofline_call(): too few or too many arguments */
    ROOFLINE_ERROR_NOMEM = 7,           /**< an allocation failed */
    ROOFLINE_ERROR_INTERNAL = 8,        /**< a bug in libroofline: please report it */
    ROOFLINE_ERROR_UNKNOWN_ID = 9       /**< a text argument names no catalog entry: model, gpu, dtype, profile, field (since 0.3) */
} roofline_status;

/** The name of a status, e.g. "ROOFLINE_ERROR_ARGUMENT"; "ROOFLINE_ERROR_UNKNOWN" for other values. */
ROOFLINE_API const char* roofline_status_string(int status);

/**
** What went wrong in this thread's last call, in English: "<FORMULA>: argument '<arg>': <reason>" when an
** argument is at fault, e.g. "ROOFLINE_DECODE_MS: argument 'batch': must be a whole number >= 1 (got 0.5)",
** else "<FORMULA>: <reason>", e.g. "ROOFLINE_MAX_BATCH: the weights (16 GB) and the reserve (0 GB) do not
** fit in mem_gb = 8 GB". "" after a call that succeeded. Valid until this thread's next call into the library.
*/
ROOFLINE_API const char* roofline_errmsg(void);

/** The name of the argument at fault in this thread's last call ("batch"), or "" when none is. */
ROOFLINE_API const char* roofline_errarg(void);

/**
** The <reason> part of roofline_errmsg() alone, for hosts that say where themselves (a CLI option, a
** spreadsheet cell), e.g. "must be a whole number >= 1 (got -1)" or
** "no model 'llama3-70b' in the catalog; did you mean 'llama-3-70b'?". It never names a host's own
** means (no "see ROOFLINE_MODELS()"): hosts add their own pointer. "" after a call that succeeded.
** Valid until this thread's next call into the library. Since 0.3.
*/
ROOFLINE_API const char* roofline_errdetail(void);

/**
** The index of the candidate closest to `word` when it is close enough to be a likely typo, else -1
** (also -1 when `word` or `candidates` is NULL; a NULL candidate matches nothing). The rule the library
** uses for its own suggestions: case-insensitive; '-', '_', '.' and ' ' weigh nothing; then an edit
** distance (insertions, deletions, substitutions, transpositions of neighbours) of at most one per three
** characters of `word`, at least one; the closest, then the first, wins. E.g. "stpe" among
** {"roof", "step", "fit"} gives 1. For a host's own names (CLI subcommands). Since 0.3.
*/
ROOFLINE_API long roofline_nearest(const char* word, const char* const* candidates, size_t count);

/* ---- Arrays ----------------------------------------------------------------------------------- */

/**
** An array result: rows x cols cells, each a number or a text. Created by functions whose formula
** returns an array, owned by the caller, freed with roofline_array_free(). Immutable: it may be read
** from several threads at once.
*/
typedef struct roofline_array roofline_array;

/** Number of rows; 0 for NULL. */
ROOFLINE_API size_t roofline_array_rows(const roofline_array* array);
/** Number of columns; 0 for NULL. */
ROOFLINE_API size_t roofline_array_cols(const roofline_array* array);
/** Nonzero if the cell holds a text; 0 for a number, or for NULL or a cell outside the array. */
ROOFLINE_API int roofline_array_is_text(const roofline_array* array, size_t row, size_t col);
/** The number in a cell; 0.0 for a text cell, for NULL or for a cell outside the array. */
ROOFLINE_API double roofline_array_number(const roofline_array* array, size_t row, size_t col);
/** The text in a cell (UTF-8, valid until the array is freed); NULL for a number cell, NULL or outside. */
ROOFLINE_API const char* roofline_array_text(const roofline_array* array, size_t row, size_t col);
/** Frees an array. NULL is allowed and does nothing. */
ROOFLINE_API void roofline_array_free(roofline_array* array);

/* ---- The formula table ------------------------------------------------------------------------ */

/** Types of arguments and results. */
typedef enum roofline_type {
    ROOFLINE_TYPE_NUMBER = 0, /**< double */
    ROOFLINE_TYPE_TEXT = 1,   /**< NUL-terminated UTF-8 */
    ROOFLINE_TYPE_ARRAY = 2,  /**< roofline_array (results only) */
    ROOFLINE_TYPE_REST = 3,   /**< arguments only, only the last: any number of further arguments, each a number
                                   or a text (roofline_value); optional, no default (since 0.3) */
    ROOFLINE_TYPE_TABLE = 4   /**< arguments only: a table of cells (a spreadsheet's range) passed as ONE text
                                   (roofline_value.text, or the typed function's const char*): rows separated by
                                   '\n' ("\r\n" also), cells by '\t'; a cell that reads whole as a number (C
                                   locale, e.g. "7.25", "1e3") is that number, an empty cell is empty, any other
                                   cell a text (so a text cell cannot hold a tab or a line break: hosts refuse
                                   one). The argument's `unit` lists its columns, e.g. "model, gpu, ..." (since 0.8) */
} roofline_type;

/** One argument of a formula. Fields may be appended in later minor versions: reach it only through
**  the pointers of roofline_formula_info.args, never by an array of your own. */
typedef struct roofline_arg_info {
    const char* name;            /**< as in the formula contract, e.g. "params_b" */
    const char* unit;            /**< e.g. "billions", "TB/s", "ms" */
    int type;                    /**< roofline_type: NUMBER, TEXT, REST or (since 0.8) TABLE; a host that meets a
                                      type it does not know refuses the formula rather than guess */
    int optional;                /**< nonzero if the formula has a default for it */
    double default_number;       /**< the default of an optional number argument, else 0 */
    const char* default_text;    /**< the default of an optional text argument, else NULL */
    const char* description_en;  /**< one sentence, English */
    const char* description_zh;  /**< one sentence, Simplified Chinese */
    const char* default_label;   /**< NULL since 0.3: show roofline_arg_default_string(); kept for compatibility */
} roofline_arg_info;

/** One formula. Fields may be appended in later minor versions. */
typedef struct roofline_formula_info {
    const char* name;            /**< spreadsheet name, e.g. "ROOFLINE_DECODE_MS" */
    const char* c_name;          /**< this header's function, e.g. "roofline_decode_ms" */
    const char* group;           /**< section of the formula contract, e.g. "Roofline primitives" */
    int result_type;             /**< roofline_type of the result */
    const char* result_unit;     /**< e.g. "ms" */
    const char* description_en;  /**< English */
    const char* description_zh;  /**< Simplified Chinese */
    size_t arg_count;            /**< number of arguments, optional ones included */
    const roofline_arg_info* const* args; /**< arg_count pointers to the arguments, in formula order */
    const char* example;         /**< a spreadsheet call with the article's numbers */
    /** Since 0.6: the arguments that the typed function c_name takes, the first c_arg_count of the formula's (a
    ** formula that gained arguments after c_name was released keeps c_name as it was: see HOW THE ABI GROWS).
    ** Before 0.6 every typed function took all arg_count arguments. */
    size_t c_arg_count;
    /** Since 0.6: the typed function that takes all arg_count arguments: c_name itself, or c_name with the suffix
    ** "_v2" where the formula grew (e.g. "roofline_step_ms_v2"), "_v3" where it grew twice ("roofline_plan_v3",
    ** since 0.13; "roofline_plan_v2" takes the arguments before "headroom"), "_v4" where it grew three times
    ** ("roofline_plan_v4", since 0.14), "_v5" four times ("roofline_plan_v5", since 0.14). */
    const char* c_name_all;
} roofline_formula_info;

/** Number of formulas. */
ROOFLINE_API size_t roofline_formula_count(void);
/** The formula at `index` (0 .. roofline_formula_count()-1), or NULL past the end. Static storage. */
ROOFLINE_API const roofline_formula_info* roofline_formula_at(size_t index);
/** The formula named `name` (case-insensitive, "ROOFLINE_DECODE_MS"), or NULL. Static storage. */
ROOFLINE_API const roofline_formula_info* roofline_formula_find(const char* name);

/**
** How documentation shows the default of `arg`: "989", "0.9", "bf16" (texts unquoted); "" when the
** argument is not optional, when `arg` is NULL or when it is not one of the library's own structs (reached
** through roofline_formula_at() or roofline_formula_find()). The one formatter of defaults: every host
** shows this text. Static storage, valid for the life of the process. Since 0.3.
*/
ROOFLINE_API const char* roofline_arg_default_string(const roofline_arg_info* arg);

/**
** The signature of `formula` as documentation shows it, optional arguments in brackets with their
** defaults as roofline_arg_default_string() gives them, e.g.
** "ROOFLINE_DECODE_MS(params_b; batch; ctx; bw_tbs; [tflops=989]; [kv_kib_per_token=128]; [bytes_per_param=2])".
** "" when `formula` is NULL or not one of the library's own structs. Static storage, valid for the life of
** the process. Since 0.3.
*/
ROOFLINE_API const char* roofline_formula_signature(const roofline_formula_info* formula);

/* ---- Calling any formula by name -------------------------------------------------------------- */

/** An argument of roofline_call(): a number, or a text when `text` is not NULL. */
typedef struct roofline_value {
    double number;     /**< used when text is NULL */
    const char* text;  /**< UTF-8; NULL for a number */
} roofline_value;

/**
** Calls the formula `name` (case-insensitive) with `nargs` arguments; trailing optional arguments
** may be left out and take their defaults. The result, whatever its type, comes back as a new array
** in *result (1 x 1 for a number or a text) that the caller frees with roofline_array_free().
** `args` may be NULL when `nargs` is 0.
** This is the way a C, Go or Rust caller gets a formula's defaults (the typed functions take every
** argument): leave the optional arguments out, e.g. ROOFLINE_DECODE_MS(8; 64; 4096; 3.35) with its
** tflops, kv_kib_per_token and bytes_per_param at their defaults:
**     roofline_value args[] = {{8, NULL}, {64, NULL}, {4096, NULL}, {3.35, NULL}};
**     roofline_array* r = NULL;
**     if (roofline_call("ROOFLINE_DECODE_MS", args, 4, &r) == ROOFLINE_OK) {
**         double ms = roofline_array_number(r, 0, 0);  (15.03)
**         roofline_array_free(r);
**     }
** Errors: ROOFLINE_ERROR_NULL (name or result NULL), ROOFLINE_ERROR_UNKNOWN_FORMULA,
** ROOFLINE_ERROR_ARITY, ROOFLINE_ERROR_ARGUMENT (wrong type or domain) and those of the formula.
*/
ROOFLINE_API int roofline_call(const char* name, const roofline_value* args, size_t nargs,
                               roofline_array** result);

/**
** Calls the formula `name` (case-insensitive) `n` times at once, for sweeps: one C call instead of n.
** Only formulas whose result is a number (roofline_formula_info.result_type ROOFLINE_TYPE_NUMBER).
**
**   columns         `nargs` pointers, one per argument in formula order (trailing optional arguments
**                   may be left out and take their defaults), each to column_lengths[k] values
**   column_lengths  `nargs` lengths, each 1 or n: call i takes columns[k][i] when the length is n, and
**                   columns[k][0] when it is 1 (one value for every call: a broadcast, as in numpy)
**   results         n doubles (the caller's): results[i] is written only when call i succeeds
**   statuses        n ints (the caller's), or NULL. Not NULL: every call is made and statuses[i] is the
**                   status of call i, ROOFLINE_OK or the error roofline_call() gives for those arguments.
**                   NULL: the calls stop at the first that fails.
**   failed          NULL, or where the index of the first call that failed is written; n when none did or
**                   when the call as a whole failed.
**
** Returns ROOFLINE_OK when every call succeeded. When a call failed: the status of the first that failed,
** and roofline_errmsg(), roofline_errarg() and roofline_errdetail() say what roofline_call() says of it
** (its index is in statuses and *failed). Errors of the call as a whole, before any call (results and
** statuses are not written): ROOFLINE_ERROR_NULL (name; columns, column_lengths or a column of length > 0
** when nargs > 0; results when n > 0), ROOFLINE_ERROR_UNKNOWN_FORMULA, ROOFLINE_ERROR_ARITY, and
** ROOFLINE_ERROR_ARGUMENT when the formula's result is not a number (roofline_errarg() is "name") or a column's
** length is neither 1 nor n (roofline_errarg() names its argument). n = 0 makes no call and succeeds.
** The columns are only read; nothing is allocated for the caller. Since 0.4.
** Example: ROOFLINE_DECODE_MS over three batches at 4096 tokens of context:
**     roofline_value p = {8, NULL}, b[3] = {{1, NULL}, {8, NULL}, {64, NULL}}, c = {4096, NULL}, bw = {3.35, NULL};
**     const roofline_value* columns[4] = {&p, b, &c, &bw};
**     const size_t lengths[4] = {1, 3, 1, 1};
**     double ms[3];
**     int rc = roofline_call_many("ROOFLINE_DECODE_MS", columns, lengths, 4, 3, ms, NULL, NULL);
*/
ROOFLINE_API int roofline_call_many(const char* name, const roofline_value* const* columns,
                                    const size_t* column_lengths, size_t nargs, size_t n, double* results,
                                    int* statuses, size_t* failed);

/* ---- Roofline primitives ---------------------------------------------------------------------- */

/**
** ROOFLINE_COMPUTE_MS(flops; tflops): compute time, flops / peak, in ms.
** flops: FLOP (>= 0). tflops: dense peak, TFLOP/s (> 0).
** Example: roofline_compute_ms(16e9, 989, &ms) gives 0.01618 ms.
*/
ROOFLINE_API int roofline_compute_ms(double flops, double tflops, double* result);

/**
** ROOFLINE_MEMORY_MS(bytes; tbs): memory time, bytes / bandwidth, in ms.
** bytes: bytes (>= 0). tbs: memory bandwidth, TB/s (> 0).
** Example: roofline_memory_ms(16e9, 3.35, &ms) gives 4.776 ms.
*/
ROOFLINE_API int roofline_memory_ms(double bytes, double tbs, double* result);

/**
** ROOFLINE_TIME_MS(flops; bytes; tflops; tbs): the lower bound of one step, the larger of its
** compute time and its memory time, in ms. Arguments as in the two functions above.
*/
ROOFLINE_API int roofline_time_ms(double flops, double bytes, double tflops, double tbs, double* result);

/**
** ROOFLINE_AI(flops; bytes): arithmetic intensity, flops / bytes, in FLOP/byte.
** flops: FLOP (>= 0). bytes: bytes (> 0).
*/
ROOFLINE_API int roofline_ai(double flops, double bytes, double* result);

/**
** ROOFLINE_BALANCE(tflops; tbs): the balance point of a GPU, peak over bandwidth, in FLOP/byte.
** A step whose arithmetic intensity is above it is compute bound. H100 SXM: 989 / 3.35 = 295.
*/
ROOFLINE_API int roofline_balance(double tflops, double tbs, double* result);

/**
** ROOFLINE_ATTAINABLE_TFLOPS(ai; tflops; tbs): the roof at arithmetic intensity `ai`:
** min(tflops, ai x tbs), in TFLOP/s. ai: FLOP/byte (>= 0).
*/
ROOFLINE_API int roofline_attainable_tflops(double ai, double tflops, double tbs, double* result);

/**
** ROOFLINE_BOUND(flops; bytes; tflops; tbs): what bounds the step, "memory" or "compute", as a
** static string in *result (never freed). A tie counts as "memory": a step is compute bound only when
** its compute time is strictly the longer.
*/
ROOFLINE_API int roofline_bound(double flops, double bytes, double tflops, double tbs, const char** result);

/**
** ROOFLINE_ROOF(tflops; tbs; [ai_min=0.1]; [ai_max=10000]; [points=50]): the roofline as a new array
** of `points` rows and two number columns: arithmetic intensity in FLOP/byte, log-spaced from ai_min
** to ai_max (both included), and the attainable TFLOP/s there. For a log-log chart.
** ai_min > 0; ai_max > ai_min; points a whole number from 2 to 10000. Free with roofline_array_free().
*/
ROOFLINE_API int roofline_roof(double tflops, double tbs, double ai_min, double ai_max, double points,
                               roofline_array** result);

/* ---- Dense model from its parameter count (the article's model) ------------------------------- */
/*
** Weights are read once per step and shared by the whole batch; every sequence reads its own KV
** cache; compute is 2 FLOP per parameter per token; compute and memory overlap ideally. The
** article's defaults: tflops = 989 (H100 SXM BF16 dense), kv_kib_per_token = 128 (an 8B GQA model),
** bytes_per_param = 2 (BF16), bw_tbs = 3.35 (H100 SXM).
**
**   params_b          parameters, billions (> 0)
**   batch             sequences in the step, a whole number >= 1
**   ctx               context tokens per sequence (>= 0; > 0 in roofline_max_batch)
**   bw_tbs            memory bandwidth, TB/s (> 0)
**   tflops            dense peak, TFLOP/s (> 0)
**   kv_kib_per_token  KV cache per token, KiB (>= 0; > 0 in roofline_max_batch)
**   bytes_per_param   bytes per weight (> 0): 2 BF16, 1 FP8/INT8, 0.5 INT4
*/

/**
** ROOFLINE_DECODE_MS(params_b; batch; ctx; bw_tbs; [tflops=989]; [kv_kib_per_token=128];
** [bytes_per_param=2]): the lower bound of one decode step, in ms: the larger of
** 2 x params x batch / peak and (weights + batch x ctx x KV per token) / bandwidth.
** Example: roofline_decode_ms(8, 64, 4096, 3.35, 989, 128, 2, &ms) gives 15.03 ms.
*/
ROOFLINE_API int roofline_decode_ms(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                                    double kv_kib_per_token, double bytes_per_param, double* result);

/**
** ROOFLINE_DECODE_TOKS(params_b; batch; ctx; bw_tbs; [tflops=989]; [kv_kib_per_token=128];
** [bytes_per_param=2]): the throughput ceiling of decode, batch / step time, in tokens/s.
*/
ROOFLINE_API int roofline_decode_toks(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                                      double kv_kib_per_token, double bytes_per_param, double* result);

/**
** ROOFLINE_DECODE_AI(params_b; batch; ctx; [kv_kib_per_token=128]; [bytes_per_param=2]): the
** arithmetic intensity of one decode step, FLOP over the bytes of weights and KV, in FLOP/byte.
*/
ROOFLINE_API int roofline_decode_ai(double params_b, double batch, double ctx, double kv_kib_per_token,
                                    double bytes_per_param, double* result);

/**
** ROOFLINE_DECODE_FLOP(params_b; batch): the FLOPs of one decode step, 2 x params x batch (2 FLOP per
** parameter per sequence). Example: roofline_decode_flop(8, 64, &flop) gives 1.024e12. Since 0.3.
*/
ROOFLINE_API int roofline_decode_flop(double params_b, double batch, double* result);

/**
** ROOFLINE_DECODE_BYTES(params_b; batch; ctx; [kv_kib_per_token=128]; [bytes_per_param=2]): the bytes one
** decode step reads: the weights once, and each sequence's KV cache of `ctx` tokens. With
** roofline_decode_flop(), roofline_time_ms(flop, bytes, tflops, bw_tbs) is roofline_decode_ms(). Since 0.3.
*/
ROOFLINE_API int roofline_decode_bytes(double params_b, double batch, double ctx, double kv_kib_per_token,
                                       double bytes_per_param, double* result);

/**
** ROOFLINE_CRITICAL_BATCH(params_b; ctx; tflops; bw_tbs; [kv_kib_per_token=128]; [bytes_per_param=2]):
** the smallest whole batch whose decode step is compute bound. ROOFLINE_ERROR_NO_SOLUTION where
** the KV read of one more sequence takes at least as long as its compute, so that no batch is.
*/
ROOFLINE_API int roofline_critical_batch(double params_b, double ctx, double tflops, double bw_tbs,
                                         double kv_kib_per_token, double bytes_per_param, double* result);

/**
** ROOFLINE_PREFILL_MS(params_b; tokens; tflops; [bw_tbs=3.35]; [bytes_per_param=2]): the lower bound
** of a prefill of `tokens` tokens (a whole number >= 1), in ms: the larger of
** 2 x params x tokens / peak and weights / bandwidth.
*/
ROOFLINE_API int roofline_prefill_ms(double params_b, double tokens, double tflops, double bw_tbs,
                                     double bytes_per_param, double* result);

/** ROOFLINE_WEIGHTS_GB(params_b; [bytes_per_param=2]): memory of the weights, in GB. */
ROOFLINE_API int roofline_weights_gb(double params_b, double bytes_per_param, double* result);

/**
** ROOFLINE_KV_GB(batch; ctx; [kv_kib_per_token=128]): memory of the KV cache of `batch` sequences of
** `ctx` tokens, in GB.
*/
ROOFLINE_API int roofline_kv_gb(double batch, double ctx, double kv_kib_per_token, double* result);

/**
** ROOFLINE_MAX_BATCH(mem_gb; params_b; ctx; [kv_kib_per_token=128]; [bytes_per_param=2];
** [reserve_gb=0]): how many whole sequences of `ctx` tokens fit in `mem_gb` GB beside the weights
** and `reserve_gb` GB. ROOFLINE_ERROR_NO_SOLUTION where the weights and the reserve alone do not fit.
*/
ROOFLINE_API int roofline_max_batch(double mem_gb, double params_b, double ctx, double kv_kib_per_token,
                                    double bytes_per_param, double reserve_gb, double* result);

/* ---- Catalog and model-aware estimates --------------------------------------------------------- */
/*
** `gpu` and `model` are catalog ids, case-insensitive (ROOFLINE_GPUS(), ROOFLINE_MODELS()), or ids that
** the host program added with roofline_model_import_hf_config() or roofline_catalog_add_json().
** A model argument (`model`, and `draft_model` of roofline_spec_step_ms) may instead be the text of a
** Hugging Face config.json: a text whose first character other than a space, tab, CR or LF is '{' is
** read by the importer of roofline_model_import_hf_config() and never looked up as an id (an id is never
** read as JSON), so that a spreadsheet cell can carry its model. Each text is read once and kept in a
** cache of the 64 used last, keyed by the exact text, shared by every thread; its model's id (in error
** messages) is "config:" and the first 8 hex digits of the text's 64-bit FNV-1a hash. A config the
** importer refuses is ROOFLINE_ERROR_ARGUMENT on that argument, naming the config.json field ("config.json
** has no 'hidden_size'"); so is a text over 1 MiB (1048576 bytes).
** `weight_dtype` and `kv_dtype` are "fp32", "bf16", "fp16", "fp8", "int8", "int4", "q8_0", "q4_0",
** "q4_k_m", "nvfp4", "mxfp4" or "fp8_block" (block scales included: int4 4.25 bits, q8_0 8.5, q4_0 4.5,
** q4_k_m 4.84, nvfp4 4.5, mxfp4 4.25, fp8_block 8.002); `weight_dtype` may also be "native", the
** checkpoint's own formats per module (gpt-oss: MXFP4 experts, the rest bf16), its default and what ""
** means (since 0.5; before, bf16 for every model: only models whose checkpoint is not 16-bit moved). `kv_dtype` is
** "bf16" by default, whatever the weights' format (a 16-bit KV cache, as serving engines keep it unless told
** otherwise); "" means that default too. `profile` is "bound" (full bandwidth, dense peak, no overhead: a
** true lower bound), "typical" (fitted on measurements of serving engines; on an AMD GPU its AMD variant), one
** engine's since 0.9 ("vllm", "sglang", "tensorrt-llm"; "llama.cpp" since 0.4), or since 0.7 a profile text,
** "fit(...): bw=0.83, mfu=0.61, link=0.7, step_ms=1.2, allreduce_us=15, ep_imbalance=1.11, overlap_ep=0"
** (docs/formulas.md, "Profiles as text"; 0.9 added the optional mfu_tokens, attn, layer_us, alltoall_us, 0.10 the
** optional expert_us); a malformed one is ROOFLINE_ERROR_ARGUMENT naming
** the parameter in roofline_errmsg(). Each distinct valid profile text is parsed once and kept (a few
** hundred bytes) for the life of the process. `tp` is the number
** of GPUs in tensor parallel (a divisor of the model's attention heads). Text arguments must not be
** NULL (ROOFLINE_ERROR_NULL); an unknown id, dtype, field or profile is ROOFLINE_ERROR_UNKNOWN_ID.
** Defaults of the spreadsheet formulas: weight_dtype "native", kv_dtype "bf16", tp 1, profile "bound",
** batch 1 (roofline_ttft_ms), mem_util 0.9.
*/

/** ROOFLINE_GPUS(): the GPU ids of the catalog, as a new array of one text column. */
ROOFLINE_API int roofline_gpus(roofline_array** result);

/** ROOFLINE_MODELS(): the model ids of the catalog, as a new array of one text column. */
ROOFLINE_API int roofline_models(roofline_array** result);

/**
** ROOFLINE_GPU(gpu; field): a number of the GPU catalog. Fields: fp32_tflops, tf32_tflops, bf16_tflops,
** fp16_tflops, fp8_tflops (dense TFLOP/s), int8_tops, int4_tops (dense TOPS), hbm_tbs (TB/s), hbm_gb
** (GB), l2_mb (MB), interconnect_tbs (TB/s per direction within the scale-up domain), usd_per_gpu_hour
** (an example on-demand price, USD), fp4_tflops (dense block-scaled FP4: NVFP4/MXFP4), scaleup_gpus (the
** GPUs of one scale-up domain: 8 for an HGX/OAM node, 72 for an NVL72 rack, 1 for a GPU alone; 8 where a
** user catalog leaves it out), scaleout_tbs (network TB/s per GPU per direction beyond the domain),
** power_w (board power per GPU, W), host_link_tbs (TB/s per direction between a GPU and its host's memory: PCIe or
** NVLink-C2C; since 0.14), idle_w (W a GPU draws with nothing running, measured; since 0.14), host_w (W per GPU the
** rest of its server draws: the system's published maximum less its GPUs' board power; since 0.14), server_gpus
** (GPUs of the server or rack it is rented in: 8 for an HGX node, 72 for an NVL72 rack; since 0.14),
** usd_per_gpu_hour_reserved (a reserved or committed example price, USD per GPU-hour; since 0.14), reserved_years
** (its term, years; since 0.14), usd_per_server (an example purchase price of one server or rack of server_gpus GPUs,
** USD; since 0.14), memory_gb (the memory the serving functions and the planner take mem_util of, GB: the total
** the driver reports where the catalog records it, else hbm_gb; since 0.16). ROOFLINE_ERROR_NO_SOLUTION where the
** GPU has no such figure (fp8 on an
** A100, fp4 on an H100, a price or a NIC the catalog does not record).
*/
ROOFLINE_API int roofline_gpu(const char* gpu, const char* field, double* result);

/**
** ROOFLINE_MODEL(model; field): a number of the model catalog. Fields: params_b, active_params_b
** (counted from the architecture, billions), params_b_reported, active_params_b_reported (as published),
** layers, hidden, heads, kv_heads, head_dim, ffn, vocab, experts, experts_per_token, shared_experts,
** expert_ffn, kv_lora_rank, sliding_window, sliding_layers, kv_kib_per_token (all layers, K and V, at
** 2 bytes per value, KiB), context_window (tokens a sequence may hold, prompt and answer: the config's
** max_position_embeddings, or its rope_scaling's factor x original_max_position_embeddings where larger; 0: not
** given; since 0.14, every formula refuses a context beyond it, ROOFLINE_ERROR_ARGUMENT naming ctx, prompt_tokens,
** output_tokens or turns).
*/
ROOFLINE_API int roofline_model(const char* model, const char* field, double* result);

/**
** ROOFLINE_MODEL_CONFIG(model): the config text of `model` (a catalog id, one of the user folder or imported by a
** host, or a config text itself) as *result: its Hugging Face config.json as compact JSON, with the checkpoint's
** hf_quant_config.json, where one came with the model, as its "quantization_config" (quant_method "modelopt").
** Given as the `model` of any formula, the text computes as the model itself, on a machine that has it or not:
** a workbook keeps it in a cell so that a colleague without the first user's folder computes the same. The
** model's id, name and reported sizes are not in it (a config text's id is "config:" and its hash). *result is
** valid until this thread's next call into the library (like roofline_errmsg()). ROOFLINE_ERROR_UNKNOWN_ID
** for an unknown id. Since 0.13.
*/
ROOFLINE_API int roofline_model_config(const char* model, const char** result);

/*
** LAYOUTS (since 0.6). The model-aware functions that take `tp` have a _v2 beside them that also takes the layout
** of the replica's tp GPUs, three whole numbers >= 1 appended after the released arguments (the formulas take them
** as their last, optional arguments; left out, each is 1, and every result is what it was before 0.6):
**   ep            expert parallelism: the routed experts spread over ep GPUs, each expert in tensor parallel over
**                 tp / (pp x ep); tokens go to their experts and back (all-to-all). A divisor of tp / pp; only 1
**                 for a model without experts.
**   dp_attention  data-parallel attention: attention (and the state layers) in dp_attention groups of
**                 tp / (pp x dp_attention) GPUs, each group with its own sequences and their KV cache. A divisor
**                 of tp / pp whose groups divide the model's heads.
**   pp            pipeline parallelism: the layers in pp stages of tp / pp GPUs, the batch in pp micro-batches. A
**                 divisor of tp, at most the model's layers.
** docs/serving-model.md ("Layouts") states what each costs and moves.
*/

/**
** ROOFLINE_STEP_MS(model; gpu; batch; ctx; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1];
** [profile=bound]): one decode step of `batch` sequences (a whole number >= 1) whose context is `ctx`
** tokens (>= 0), on `tp` GPUs, in ms: the sum over its operators (projections, attention with its KV
** reads, MLP or the experts a batch touches, norms, embedding rows, lm_head, all-reduces) of each
** operator's own roofline, plus the profile's overhead.
*/
ROOFLINE_API int roofline_step_ms(const char* model, const char* gpu, double batch, double ctx, const char* weight_dtype,
                                  const char* kv_dtype, double tp, const char* profile, double* result);

/** roofline_step_ms with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_step_ms). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_step_ms_v2(const char* model, const char* gpu, double batch, double ctx,
                                     const char* weight_dtype, const char* kv_dtype, double tp, const char* profile,
                                     double ep, double dp_attention, double pp, double* result);

/** ROOFLINE_STEP_TOKS(...): batch / roofline_step_ms, tokens/s of the system. Arguments as roofline_step_ms. */
ROOFLINE_API int roofline_step_toks(const char* model, const char* gpu, double batch, double ctx,
                                    const char* weight_dtype, const char* kv_dtype, double tp, const char* profile,
                                    double* result);

/** roofline_step_toks with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_step_toks). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_step_toks_v2(const char* model, const char* gpu, double batch, double ctx,
                                       const char* weight_dtype, const char* kv_dtype, double tp,
                                       const char* profile, double ep, double dp_attention, double pp,
                                       double* result);

/**
** ROOFLINE_TTFT_MS(model; gpu; prompt_tokens; [batch=1]; [weight_dtype=native]; [tp=1]; [profile=bound]):
** the prefill of `batch` prompts of `prompt_tokens` tokens each (causal attention, the lm_head for the
** last token of each prompt; the prefill writes a 16-bit KV cache), in ms.
*/
ROOFLINE_API int roofline_ttft_ms(const char* model, const char* gpu, double prompt_tokens, double batch,
                                  const char* weight_dtype, double tp, const char* profile, double* result);

/** roofline_ttft_ms with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_ttft_ms). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_ttft_ms_v2(const char* model, const char* gpu, double prompt_tokens, double batch,
                                     const char* weight_dtype, double tp, const char* profile, double ep,
                                     double dp_attention, double pp, double* result);

/**
** ROOFLINE_ENERGY_J(model; gpu; batch; ctx; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1]; [profile=bound]; [ep=1];
** [dp_attention=1]; [pp=1]): the energy of roofline_step_ms's decode step over all `tp` GPUs of the replica, per
** output token (one per sequence), in J: each GPU's idle power for the step's time, and shares of its board power
** above idle for being busy and for its FLOPs at the peak and bytes at the full bandwidth (docs/formulas.md,
** "Energy"); never more than board power x step time x tp / batch. GPUs only (not the server around them, not the
** PUE). ROOFLINE_ERROR_NO_SOLUTION naming `gpu` where the catalog has no board power for it. Since 0.14.
*/
ROOFLINE_API int roofline_energy_j(const char* model, const char* gpu, double batch, double ctx,
                                   const char* weight_dtype, const char* kv_dtype, double tp, const char* profile,
                                   double ep, double dp_attention, double pp, double* result);

/**
** ROOFLINE_PREFILL_ENERGY_J(model; gpu; prompt_tokens; [batch=1]; [weight_dtype=native]; [tp=1]; [profile=bound];
** [ep=1]; [dp_attention=1]; [pp=1]): the energy of roofline_ttft_ms's prefill over all `tp` GPUs of the replica, per
** prompt token, in J (the power model of roofline_energy_j). GPUs only. Since 0.14.
*/
ROOFLINE_API int roofline_prefill_energy_j(const char* model, const char* gpu, double prompt_tokens, double batch,
                                           const char* weight_dtype, double tp, const char* profile, double ep,
                                           double dp_attention, double pp, double* result);

/**
** ROOFLINE_FIT_BATCH(model; gpu; ctx; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1]; [mem_util=0.9]):
** how many sequences of `ctx` tokens (> 0) fit in `mem_util` (0 < mem_util <= 1) of each GPU's memory
** beside its share of the weights. ROOFLINE_ERROR_NO_SOLUTION where the weights alone do not fit.
*/
ROOFLINE_API int roofline_fit_batch(const char* model, const char* gpu, double ctx, const char* weight_dtype,
                                    const char* kv_dtype, double tp, double mem_util, double* result);

/** roofline_fit_batch with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_fit_batch). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_fit_batch_v2(const char* model, const char* gpu, double ctx, const char* weight_dtype,
                                       const char* kv_dtype, double tp, double mem_util, double ep,
                                       double dp_attention, double pp, double* result);

/**
** ROOFLINE_CACHE_GB(model; batch; ctx; [kv_dtype=bf16]; [tp=1]): GB of KV cache and recurrent state that
** `batch` sequences of `ctx` tokens hold on each of `tp` GPUs: a sliding window or a chunk caps its layers,
** a state layer (Gated DeltaNet, Mamba2) holds a fixed state per sequence, MLA stores its latent, sparse
** attention adds its indexer keys. Since 0.5.
*/
ROOFLINE_API int roofline_cache_gb(const char* model, double batch, double ctx, const char* kv_dtype, double tp,
                                   double* result);

/** roofline_cache_gb with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_cache_gb). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_cache_gb_v2(const char* model, double batch, double ctx, const char* kv_dtype, double tp,
                                      double ep, double dp_attention, double pp, double* result);

/**
** ROOFLINE_STEP_BREAKDOWN(...): the step of roofline_step_ms operator by operator, as a new array of five
** columns: a header row ("operator", "FLOP", "bytes", "ms", "bound"), then one row per operator: its name,
** FLOP and bytes on one GPU of `tp` (for an all-reduce, the bytes it sends), ms, and what bounds it
** ("compute", "memory", "interconnect" or "overhead"). Arguments as roofline_step_ms.
*/
ROOFLINE_API int roofline_step_breakdown(const char* model, const char* gpu, double batch, double ctx,
                                         const char* weight_dtype, const char* kv_dtype, double tp,
                                         const char* profile, roofline_array** result);

/** roofline_step_breakdown with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_step_breakdown). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_step_breakdown_v2(const char* model, const char* gpu, double batch, double ctx,
                                            const char* weight_dtype, const char* kv_dtype, double tp,
                                            const char* profile, double ep, double dp_attention, double pp,
                                            roofline_array** result);

/**
** ROOFLINE_TTFT_BREAKDOWN(model; gpu; prompt_tokens; [batch=1]; [weight_dtype=native]; [tp=1]; [profile=bound]):
** the prefill of roofline_ttft_ms operator by operator, prefill attention included, as a new array of five
** columns like roofline_step_breakdown's: a header row ("operator", "FLOP", "bytes", "ms", "bound"), then
** one row per operator. Its "ms" column adds up to roofline_ttft_ms() under every profile. Arguments as
** roofline_ttft_ms. Since 0.3.
*/
ROOFLINE_API int roofline_ttft_breakdown(const char* model, const char* gpu, double prompt_tokens, double batch,
                                         const char* weight_dtype, double tp, const char* profile,
                                         roofline_array** result);

/** roofline_ttft_breakdown with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_ttft_breakdown). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_ttft_breakdown_v2(const char* model, const char* gpu, double prompt_tokens, double batch,
                                            const char* weight_dtype, double tp, const char* profile, double ep,
                                            double dp_attention, double pp, roofline_array** result);

/* ---- Planner: serving under load, capacity and cost (docs/serving-model.md) -------------------- */
/*
** A replica of `tp` GPUs serves requests with continuous batching and chunked prefill: each request is one
** prefill of its `prompt_tokens` tokens (which gives the first output token) and `output_tokens` - 1 decode
** steps at the batch it shares; the prefill of new requests rides in the same iterations as the decode.
** Targets are means, not percentiles: `ttft_ms` (time to first token) and `tpot_ms` (time per output token
** after the first). `model`, `gpu`, `weight_dtype`, `kv_dtype` and `tp` are as in the catalog functions above;
** `profile` defaults to "typical" here (the estimate: fitted efficiencies, the queueing of prefills, memory
** reserved for the longest context); "bound" is what no engine can beat (ideal roofline, no queue, the mean
** context in memory). `mem_util` (0 < mem_util <= 1, 0.9 by default) is the fraction of each GPU's memory
** that weights and KV cache may use. When even one request misses a target the status is
** ROOFLINE_ERROR_NO_SOLUTION and roofline_errarg() names the target ("tpot_ms" or "ttft_ms"); weights that
** do not fit name "model". Since 0.4.
*/

/**
** ROOFLINE_E2E_MS(model; gpu; prompt_tokens; output_tokens; batch; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1];
** [profile=typical]; [mem_util=0.9]): the latency of one request, in ms, on a replica whose decode batch is
** `batch` (a whole number >= 1 that fits in memory): TTFT + (output_tokens - 1) x TPOT. prompt_tokens: a whole
** number >= 1; output_tokens: a whole number >= 2. ROOFLINE_ERROR_NO_SOLUTION naming "batch" where that batch
** does not fit or its prefills arrive faster than the replica serves them. Since 0.4.
*/
ROOFLINE_API int roofline_e2e_ms(const char* model, const char* gpu, double prompt_tokens, double output_tokens,
                                 double batch, const char* weight_dtype, const char* kv_dtype, double tp,
                                 const char* profile, double mem_util, double* result);

/** roofline_e2e_ms with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_e2e_ms). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_e2e_ms_v2(const char* model, const char* gpu, double prompt_tokens, double output_tokens,
                                    double batch, const char* weight_dtype, const char* kv_dtype, double tp,
                                    const char* profile, double mem_util, double ep, double dp_attention, double pp,
                                    double* result);

/**
** ROOFLINE_SLO_BATCH(model; gpu; ctx; tpot_ms; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1]; [profile=typical];
** [mem_util=0.9]): the largest batch, in sequences, whose decode step at `ctx` tokens of context (>= 0) takes at
** most `tpot_ms` and whose KV cache fits in memory (decode alone, as in a disaggregated decode pool).
** ROOFLINE_ERROR_NO_SOLUTION naming "tpot_ms" where even one sequence's step is slower. Since 0.4.
*/
ROOFLINE_API int roofline_slo_batch(const char* model, const char* gpu, double ctx, double tpot_ms,
                                    const char* weight_dtype, const char* kv_dtype, double tp, const char* profile,
                                    double mem_util, double* result);

/** roofline_slo_batch with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_slo_batch). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_slo_batch_v2(const char* model, const char* gpu, double ctx, double tpot_ms,
                                       const char* weight_dtype, const char* kv_dtype, double tp,
                                       const char* profile, double mem_util, double ep, double dp_attention,
                                       double pp, double* result);

/** roofline_slo_batch_v2 with `percentile` and `prompt_tokens` appended (0 and 0: roofline_slo_batch_v2, the decode
** step at ctx). With `percentile` (50 to 99.9), the most concurrent requests whose TPOT meets `tpot_ms` at that
** percentile of the requests, as a simulation finds it: a closed loop (each user sends its next request as its answer
** ends; ROOFLINE_SIMULATE's concurrency) of prompts of `prompt_tokens` tokens whose answers end at `ctx` tokens of
** context, so that the prefills of new requests fall among the decode steps; at most what the replica holds in memory
** and its engine caps; bisected over whole batches, 20 requests per user (200 to 2000), seed 1. Under the bound
** profile the closed form. ROOFLINE_ERROR_ARGUMENT naming "prompt_tokens" where it leaves no answer of at least 2
** tokens before ctx (or is not 0 without percentile); ROOFLINE_ERROR_NO_SOLUTION naming "tpot_ms" where one sequence
** alone misses it. Since 0.14. */
ROOFLINE_API int roofline_slo_batch_v3(const char* model, const char* gpu, double ctx, double tpot_ms,
                                       const char* weight_dtype, const char* kv_dtype, double tp,
                                       const char* profile, double mem_util, double ep, double dp_attention,
                                       double pp, double percentile, double prompt_tokens, double* result);

/**
** ROOFLINE_REPLICA_RPS(model; gpu; prompt_tokens; output_tokens; ttft_ms; tpot_ms; [weight_dtype=native];
** [kv_dtype=bf16]; [tp=1]; [profile=typical]; [mem_util=0.9]): the requests per second one replica of `tp` GPUs
** sustains with both targets met, prefill and decode on the same GPUs. Since 0.4.
*/
ROOFLINE_API int roofline_replica_rps(const char* model, const char* gpu, double prompt_tokens, double output_tokens,
                                      double ttft_ms, double tpot_ms, const char* weight_dtype, const char* kv_dtype,
                                      double tp, const char* profile, double mem_util, double* result);

/** roofline_replica_rps with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_replica_rps). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_replica_rps_v2(const char* model, const char* gpu, double prompt_tokens,
                                         double output_tokens, double ttft_ms, double tpot_ms,
                                         const char* weight_dtype, const char* kv_dtype, double tp,
                                         const char* profile, double mem_util, double ep, double dp_attention,
                                         double pp, double* result);

/** roofline_replica_rps_v2 with `percentile` appended (0: the means, as roofline_replica_rps_v2; 50 to 99.9: both
** targets met at that percentile of the requests' TTFT and TPOT): the largest rate whose simulation (ROOFLINE_SIMULATE:
** Poisson arrivals, 1000 requests, seed 1) meets both, bisected to 1%. Under the bound profile the closed form's
** answer (no queue, no tail). ROOFLINE_ERROR_NO_SOLUTION naming the target not even a trickle of requests meets.
** Since 0.14. */
ROOFLINE_API int roofline_replica_rps_v3(const char* model, const char* gpu, double prompt_tokens,
                                         double output_tokens, double ttft_ms, double tpot_ms,
                                         const char* weight_dtype, const char* kv_dtype, double tp,
                                         const char* profile, double mem_util, double ep, double dp_attention,
                                         double pp, double percentile, double* result);

/**
** ROOFLINE_PLAN(model; rps; prompt_tokens; output_tokens; ttft_ms; tpot_ms; [gpu=datacenter];
** [weight_dtype=published]; [kv_dtype=bf16]; [profile=typical]; [disaggregated=0]; [prices=catalog]; [mem_util=0.9]):
** the capacity plan for `rps` requests per second (> 0) within both targets, as a new array of 29 columns (13
** before 0.6, 16 before 0.13, 17 before 0.14; columns are only appended): a header row ("gpu", "tp",
** "weights", "batch", "replicas", "prefill_tp", "prefill_replicas", "gpus", "ttft_ms", "tpot_ms",
** "output_tok_s_per_gpu", "usd_per_hour", "usd_per_mtok", "ep", "dp_attention", "pp", "capacity_tok_s_per_gpu",
** "checkpoint", "engine_tp", "usd_per_month", "usd_per_mtok_blended", "kw", "j_per_token", "tok_s_per_mw",
** "prefill_gpu", "usd_per_mtok_input", "usd_per_mtok_output", "servers", "usd_per_gpu_hour"),
** then one row per
** configuration, cheapest first: the GPU id, GPUs per (decode) replica, the weight format, the decode batch per
** replica, replicas, the
** prefill pool's GPUs per replica and replicas (0 and 0 unless disaggregated), GPUs in total, TTFT and TPOT of
** a replica at full load in ms, output tokens/s per GPU, USD per hour of all the GPUs and USD per million
** output tokens; the two prices are an empty text "" where the GPU has no price (such rows come last); then the
** replica's layout (LAYOUTS above); then (since 0.13) the output tokens/s per GPU that the plan's GPUs sustain with
** both targets met (colocated: a replica's capacity over its GPUs; disaggregated: the smaller pool's capacity
** over all the GPUs), at least "output_tok_s_per_gpu" (the load's share); then (since 0.14) the Hugging Face id of
** the published checkpoint in the row's formats, "" where none is; then (since 0.14) the engine's tensor-parallel size,
** tp / pp ("tp" is the GPUs of a replica, as every formula's tp argument: an engine runs it with
** --tensor-parallel-size engine_tp --pipeline-parallel-size pp); then (since 0.14) USD per month of all the GPUs
** (usd_per_hour x 730, a year's hours over 12) and USD per million tokens of the load, prompt and output tokens
** together (usd_per_mtok counts output tokens only), "" where the GPU has no price; then (since 0.14) the
** deployment's power in kW, J per output token and output tokens/s per MW, the prefill pool's GPU ("" colocated),
** the prices per million input and output tokens priced apart (roofline_plan_v5's input_ratio), the servers
** rented (roofline_plan_v5's rent) and the (decode) GPU's price per GPU-hour on roofline_plan_v5's price_basis
** ("" without). It searches the datacenter GPUs of the catalog
** ("" or "datacenter"; before 0.13 every GPU), every GPU ("all") or those `gpu` names (one id or a list
** "h100-sxm, h200"), replicas of 1, 2, 4, 8 ... GPUs up to the GPU's scale-up domain
** (72 on an NVL72 rack) in tensor parallelism, for MoE models with the experts over all of them (attention in
** tensor or data parallelism), and in two pipeline stages, and over two and four domains for a model that does
** not fit in one; in the formats `weight_dtype` says: "" or "published" (since 0.14; before, what "all" tried
** then), the model's published checkpoints, each on every GPU; "all", those and bf16, fp8 (where the GPU has it),
** int8, int4, nvfp4 and mxfp4 (where the GPU computes them) in every module; "native", the model's own formats;
** or one format in every module. Since 0.6 it lists, for each GPU, only the
** configurations that no other configuration of that GPU beats on both cost and TPOT (roofline_plan_v2's
** `rows` "all" lists every one). `disaggregated`: 0 (prefill and decode share each replica) or 1 (separate prefill and
** decode pools of the same GPU and format, each sized for its own target). `prices`: USD per GPU-hour that
** replace the catalog's, as a text "h100-sxm=2.49, a100-sxm-80gb=1.29" (entries separated by ',', ';' or a
** new line, a decimal point; "" or "catalog" for the catalog's example prices); an unknown GPU id in it is
** ROOFLINE_ERROR_UNKNOWN_ID, a bad or negative number ROOFLINE_ERROR_ARGUMENT, both naming "prices".
** ROOFLINE_ERROR_NO_SOLUTION where no configuration is feasible, naming the target that rules out most of
** them. Free with roofline_array_free(). Since 0.4.
*/
ROOFLINE_API int roofline_plan(const char* model, double rps, double prompt_tokens, double output_tokens,
                               double ttft_ms, double tpot_ms, const char* gpu, const char* weight_dtype,
                               const char* kv_dtype, const char* profile, double disaggregated, const char* prices,
                               double mem_util, roofline_array** result);

/** roofline_plan with the choice of rows appended: `rows` "best" (what roofline_plan gives: for each GPU the
** configurations that no other configuration of that GPU beats on both cost and TPOT) or "all" (every feasible
** one). Since 0.6. */
ROOFLINE_API int roofline_plan_v2(const char* model, double rps, double prompt_tokens, double output_tokens,
                                  double ttft_ms, double tpot_ms, const char* gpu, const char* weight_dtype,
                                  const char* kv_dtype, const char* profile, double disaggregated,
                                  const char* prices, double mem_util, const char* rows, roofline_array** result);

/** roofline_plan_v2 with the spare capacity appended: `headroom` (above 0, at most 1; roofline_plan_v2: 1), the
** fraction of each replica's capacity at the targets that the load may use, so that replicas = ceil(rps /
** (headroom x a replica's requests/s)) (0.8 keeps a fifth of every replica spare for bursts); and `min_replicas`
** (a whole number >= 1; roofline_plan_v2: 1), the replicas at least, of each pool where prefill and decode are
** separate. ROOFLINE_ERROR_ARGUMENT naming the one out of its domain. Since 0.13. */
ROOFLINE_API int roofline_plan_v3(const char* model, double rps, double prompt_tokens, double output_tokens,
                                  double ttft_ms, double tpot_ms, const char* gpu, const char* weight_dtype,
                                  const char* kv_dtype, const char* profile, double disaggregated,
                                  const char* prices, double mem_util, const char* rows, double headroom,
                                  double min_replicas, roofline_array** result);

/** roofline_plan_v3 with `percentile` appended (0: the means, as roofline_plan_v3; 50 to 99.9): the targets met at
** that percentile of the requests. The closed form's plan shortlists the configurations (cheapest first, those within
** twice the cheapest's cost, at most 6) and a simulation of each (roofline_replica_rps_v3) sizes its replicas again;
** the rows' batch is then the simulated mean batch and their ttft_ms and tpot_ms the percentile's. Colocated replicas
** only: ROOFLINE_ERROR_ARGUMENT naming "percentile" with disaggregated 1 (but under bound, which keeps the closed
** form); ROOFLINE_ERROR_NO_SOLUTION naming it where no shortlisted configuration meets the targets at it. Since 0.14. */
ROOFLINE_API int roofline_plan_v4(const char* model, double rps, double prompt_tokens, double output_tokens,
                                  double ttft_ms, double tpot_ms, const char* gpu, const char* weight_dtype,
                                  const char* kv_dtype, const char* profile, double disaggregated,
                                  const char* prices, double mem_util, const char* rows, double headroom,
                                  double min_replicas, double percentile, roofline_array** result);

/** roofline_plan_v4 with `usd_per_kwh`, `pue`, `max_kw`, `prefill_gpu`, `input_ratio`, `rent`, `price_basis` and
** `years` appended (0, 1, 0, "", 0, "servers", "on-demand", 5: as roofline_plan_v4; "" or NULL for a text is its
** default): electricity in
** USD per kWh added to each row's usd_per_hour (kw x usd_per_kwh: a row without a board power then has no price),
** the datacentre's PUE (>= 1, multiplying kw; ROOFLINE_ERROR_ARGUMENT naming "pue" below 1), and a power budget in kW
** (rows above it left out; ROOFLINE_ERROR_NO_SOLUTION naming "max_kw", with the least power found, where none is
** within it). Whatever the arguments, the rows carry three more columns: kw (the deployment's power: each GPU at its
** pool's full load by the power model of roofline_energy_j, and its server's share, ROOFLINE_GPU's host_w or
** docs/formulas.md's host_fraction of board power, times pue; "" without a board power), j_per_token (kw over the
** load's output tokens/s, J) and tok_s_per_mw (the load's output tokens/s per MW), and a fourth, prefill_gpu (the
** prefill pool's GPU; "" colocated). `prefill_gpu` (disaggregated 1 only, else ROOFLINE_ERROR_ARGUMENT naming it): the
** GPUs the prefill pool is tried on, one id or a list as `gpu`, each with every decode GPU, the KV cache sent between
** the two types over the network at the slower of their NICs; each pool's GPUs at their own price; "same" (the default), "" or NULL: each
** decode GPU's own. `input_ratio` (>= 0): the price of an input token as a share of an output token's; with it the
** rows' last two columns, usd_per_mtok_input and usd_per_mtok_output, are the prices per million input and output
** tokens, that far apart, that pay usd_per_hour at the load (rps x (prompt_tokens x input + output_tokens x output)
** = the hour's cost); "" with 0 or without a price. `rent`: "servers" (the default since 0.14) rents and prices
** whole servers or racks of each pool's GPU (ROOFLINE_GPU's server_gpus: 8 for an HGX node, 72 for an NVL72 rack),
** the GPUs rounded up, the spare ones counted at idle power in kw; "gpus" rents each GPU alone, as every plan did
** before 0.14 (roofline_plan to _v4 take the default too: the changed default is in docs/formulas.md). The rows' 28th column,
** servers, counts the servers rented (with "gpus": the GPUs). `price_basis`: what the catalog's prices are, for
** the GPUs `prices` does not price: "on-demand" (ROOFLINE_GPU's usd_per_gpu_hour, the default), "reserved"
** (usd_per_gpu_hour_reserved, a reserved or committed example for its reserved_years) or "owned" (usd_per_server,
** the purchase price of a server of server_gpus GPUs, over `years` x 8,760 hours per GPU-hour; owned needs
** usd_per_kwh > 0, else ROOFLINE_ERROR_ARGUMENT naming "usd_per_kwh"); a GPU with no example on the basis has no
** price; another text is ROOFLINE_ERROR_UNKNOWN_ID naming "price_basis". `years` (> 0): owned only. The rows' 29th
** column, usd_per_gpu_hour, is the (decode) GPU's price per GPU-hour on the basis, electricity apart. Since 0.14. */
ROOFLINE_API int roofline_plan_v5(const char* model, double rps, double prompt_tokens, double output_tokens,
                                  double ttft_ms, double tpot_ms, const char* gpu, const char* weight_dtype,
                                  const char* kv_dtype, const char* profile, double disaggregated,
                                  const char* prices, double mem_util, const char* rows, double headroom,
                                  double min_replicas, double percentile, double usd_per_kwh, double pue,
                                  double max_kw, const char* prefill_gpu, double input_ratio, const char* rent,
                                  const char* price_basis, double years, roofline_array** result);

/**
** ROOFLINE_FLEET(workloads; [gpu=datacenter]; [weight_dtype=published]; [profile=typical]; [prices=catalog];
** [headroom=1]; [min_replicas=1]; [price_basis=on-demand]; [years=5]; [usd_per_kwh=0]; [pue=1]; [rent=servers]):
** a fleet of workloads, each planned as roofline_plan_v5 plans it with these arguments and its cheapest configuration
** kept, as a new array of 19 columns in *result (free it with roofline_array_free()): a header row ("model", "rps",
** "gpu", "weights", "checkpoint", "tp", "engine_tp", "pp", "ep", "dp_attention", "replicas", "gpus", "servers",
** "ttft_ms", "tpot_ms", "usd_per_hour", "usd_per_month", "usd_per_mtok", "kw"), one row per workload in their order
** (the columns of roofline_plan's row of the same names), then a row whose model is "total": the load (rps summed),
** GPUs, servers, USD per hour and per month summed, USD per million output tokens of all the workloads' output, and kW
** summed ("" where a workload has no price or no board power; "" in the columns that do not add up).
**   workloads  a table (ROOFLINE_TYPE_TABLE): rows separated by '\n', cells by '\t', 6 or 7 columns in this order:
**              model, rps, prompt_tokens, output_tokens, ttft_ms, tpot_ms, gpu (optional: one GPU id or a list the
**              workload is planned on; "" or absent: the `gpu` argument's). A first row without a number (a header)
**              and empty rows are skipped; at most 100 rows.
** Each workload rents its own servers (no two share one). Errors: ROOFLINE_ERROR_ARGUMENT or ROOFLINE_ERROR_UNKNOWN_ID
** naming "workloads" with the row (1: the table's first) and its column; ROOFLINE_ERROR_NO_SOLUTION naming
** "workloads" with the workload (1: the first) and the target that rules it out; the other arguments' errors as
** roofline_plan_v5's. Since 0.14.
*/
ROOFLINE_API int roofline_fleet(const char* workloads, const char* gpu, const char* weight_dtype, const char* profile,
                                const char* prices, double headroom, double min_replicas, const char* price_basis,
                                double years, double usd_per_kwh, double pue, const char* rent,
                                roofline_array** result);

/**
** ROOFLINE_CURVE(model; gpu; prompt_tokens; output_tokens; [weight_dtype=native]; [kv_dtype=bf16]; [tp=0];
** [profile=typical]; [ep=1]; [dp_attention=1]; [pp=1]; [ttft_ms=0]; [mem_util=0.9]): throughput against
** interactivity, as a new array in *result (free it with roofline_array_free()): ten columns, a header row
** ("tpot_ms", "tok_s_per_user", "capacity_tok_s_per_gpu", "batch", "ttft_ms", "rps", "tp", "ep", "dp_attention",
** "pp"), then one row per decode batch of a replica at full load (1, 2, 3, 4, 6, 8, 12 ... up to the largest it
** runs in memory and under the profile's engine caps), fastest first: the mean TPOT (ms), 1000 / TPOT (output
** tokens/s one user sees), the output tokens/s per GPU the replica sustains (requests/s x output_tokens / tp), the
** batch, the mean TTFT at that load (ms), the replica's requests/s and its layout. `tp` 0 tries every replica size
** and layout roofline_plan() tries (ep, dp_attention and pp must then be 1) and keeps the front: a row stays when no
** faster row sustains as much per GPU. `ttft_ms` > 0 leaves out the rows above it. ROOFLINE_ERROR_NO_SOLUTION
** naming "model" where no replica holds the weights, "ttft_ms" where no row meets it. Since 0.13.
*/
ROOFLINE_API int roofline_curve(const char* model, const char* gpu, double prompt_tokens, double output_tokens,
                                const char* weight_dtype, const char* kv_dtype, double tp, const char* profile,
                                double ep, double dp_attention, double pp, double ttft_ms, double mem_util,
                                roofline_array** result);

/** roofline_curve with `percentile` appended (0: the means, as roofline_curve; 50 to 99.9): each row's "tpot_ms" and
** "ttft_ms" at that percentile of the requests, as a simulation of the replica at the row's load (its requests/s)
** finds them (ROOFLINE_SIMULATE: Poisson arrivals, 1000 requests, seed 1), and "tok_s_per_user" 1000 over that TPOT;
** "batch", "rps" and "capacity_tok_s_per_gpu" stay the closed form's (the load the row stands for). With `tp` 0 the
** closed form's front is simulated, then sorted and reduced to the front again; `ttft_ms` > 0 leaves out the rows
** whose TTFT at the percentile is above it. Under the bound profile the means (no queue, no tail). A row whose
** simulation would compute too long: ROOFLINE_ERROR_ARGUMENT naming "output_tokens". Since 0.14. */
ROOFLINE_API int roofline_curve_v2(const char* model, const char* gpu, double prompt_tokens, double output_tokens,
                                   const char* weight_dtype, const char* kv_dtype, double tp, const char* profile,
                                   double ep, double dp_attention, double pp, double ttft_ms, double mem_util,
                                   double percentile, roofline_array** result);

/**
** ROOFLINE_SIMULATE(model; gpu; rps; prompt_tokens; output_tokens; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1];
** [profile=typical]; [ep=1]; [dp_attention=1]; [pp=1]; [arrival=poisson]; [cv=1]; [requests=1000]; [seed=1];
** [lengths=fixed]; [spread=0]; [ttft_ms=0]; [tpot_ms=0]; [mem_util=0.9]; [prefix_tokens=0]; [prefix_share=0];
** [turns=1]; [think_s=0]; [host_kv_gb=0]; [host_tbs=0]): one replica under `requests` requests
** arriving at `rps` per second, simulated iteration by iteration as an engine runs them (continuous batching, chunked
** prefill within the profile's caps, KV memory with preemption: docs/serving-model.md section 14), as a new array in
** *result (free it with roofline_array_free()): five columns, a header row ("metric", "mean", "p50", "p90", "p99"),
** then the rows "ttft_ms", "tpot_ms", "itl_ms" and "e2e_ms" with their mean and percentiles (ms; linear
** interpolation between order statistics), then one row each with its value in the "mean" column and "" in the
** others: "throughput_tok_s" (output tokens/s from the first arrival to the last token), "goodput_rps" (requests/s
** within both targets ttft_ms and tpot_ms; a target of 0 is met by every request), "mean_batch" (sequences decoding,
** averaged over the time the replica works), "prefix_hit_rate", "requests", "duration_s", "iterations",
** "preemptions", "max_queue" (the most requests waiting at once), "offloaded_gb" (KV cache moved to host memory, GB
** per GPU). `arrival`: poisson, constant or gamma (gaps of
** coefficient of variation `cv`); `lengths`: fixed, uniform (mean x (1 +- spread)) or lognormal (coefficient of
** variation `spread`) about prompt_tokens and output_tokens. A prefix cache holds what KV memory the running
** sequences leave, least recently used evicted first: a shared prefix of `prefix_tokens` tokens that a share
** `prefix_share` of the conversations' prompts start with, and each conversation's history between its `turns` turns
** (a turn's prompt is the conversation so far and a new message of prompt_tokens; the next turn comes `think_s`
** seconds, exponential, after the answer; conversations start at rps / turns); "prefix_hit_rate" is the prompt
** tokens found there over all prompt tokens. With `host_kv_gb` > 0, a second tier: entries the GPUs' memory needs
** the room of go to that much host memory per GPU (its least recently used dropped), and a hit there waits for its
** bytes over `host_tbs` TB/s per direction per GPU (0: the GPU's host_link_tbs). Deterministic: the same arguments and `seed` give the
** same numbers on every platform. ROOFLINE_ERROR_NO_SOLUTION naming "model" where the weights do not fit,
** "prompt_tokens" where one request's cache does not fit alone beside them. Since 0.14.
*/
ROOFLINE_API int roofline_simulate(const char* model, const char* gpu, double rps, double prompt_tokens,
                                   double output_tokens, const char* weight_dtype, const char* kv_dtype, double tp,
                                   const char* profile, double ep, double dp_attention, double pp, const char* arrival,
                                   double cv, double requests, double seed, const char* lengths, double spread,
                                   double ttft_ms, double tpot_ms, double mem_util, double prefix_tokens,
                                   double prefix_share, double turns, double think_s, double host_kv_gb,
                                   double host_tbs, roofline_array** result);

/** roofline_simulate with `concurrency` appended (0: no limit, as roofline_simulate): at most that many requests in
** flight, as a benchmark client with a concurrency limit sends them (vllm bench serve --max-concurrency): a request
** that arrives while that many are in flight waits at the client, first come first served, and is sent when one ends;
** its TTFT and latency count from then ("max_queue" counts the requests sent and waiting at the replica, not those
** held at the client). With `rps` far above what the replica sustains, a closed loop of `concurrency` users. A whole
** number (else ROOFLINE_ERROR_ARGUMENT naming it), at most 1e6. Since 0.14. */
ROOFLINE_API int roofline_simulate_v2(const char* model, const char* gpu, double rps, double prompt_tokens,
                                      double output_tokens, const char* weight_dtype, const char* kv_dtype, double tp,
                                      const char* profile, double ep, double dp_attention, double pp,
                                      const char* arrival, double cv, double requests, double seed,
                                      const char* lengths, double spread, double ttft_ms, double tpot_ms,
                                      double mem_util, double prefix_tokens, double prefix_share, double turns,
                                      double think_s, double host_kv_gb, double host_tbs, double concurrency,
                                      roofline_array** result);

/**
** ROOFLINE_COST_PER_MTOK(usd_per_gpu_hour; gpus; output_tokens_per_s): the cost of a million output tokens,
** USD: usd_per_gpu_hour (>= 0) x gpus (a whole number >= 1) / (output_tokens_per_s (> 0) x 3600) x 1e6.
** Example: roofline_cost_per_mtok(2, 8, 1000, &usd) gives 4.444 (8 GPUs at 2 USD an hour making 1000
** tokens/s). Since 0.4.
*/
ROOFLINE_API int roofline_cost_per_mtok(double usd_per_gpu_hour, double gpus, double output_tokens_per_s,
                                        double* result);

/**
** ROOFLINE_SPEC_TOKENS(acceptance; draft_len): speculative decoding, the expected tokens per target step when
** the draft proposes `draft_len` tokens (a whole number >= 1), each accepted with probability `acceptance`
** (0 to 1) independently: (1 - acceptance^(draft_len + 1)) / (1 - acceptance), draft_len + 1 when
** acceptance is 1. Example: roofline_spec_tokens(0.8, 4, &tokens) gives 3.3616. Since 0.4.
*/
ROOFLINE_API int roofline_spec_tokens(double acceptance, double draft_len, double* result);

/**
** ROOFLINE_SPEC_STEP_MS(model; draft_model; gpu; batch; ctx; draft_len; acceptance; [weight_dtype=native];
** [kv_dtype=bf16]; [tp=1]; [profile=typical]): speculative decoding, the effective ms per output token of
** `batch` sequences of `ctx` tokens of context: (draft_len decode steps of `draft_model` + one step of `model`
** that verifies draft_len + 1 tokens per sequence) / roofline_spec_tokens(acceptance, draft_len). The draft
** runs on the same GPUs, in the same formats and tp; its heads must divide by tp (else ROOFLINE_ERROR_ARGUMENT
** naming "draft_model"). Since 0.4.
*/
ROOFLINE_API int roofline_spec_step_ms(const char* model, const char* draft_model, const char* gpu, double batch,
                                       double ctx, double draft_len, double acceptance, const char* weight_dtype,
                                       const char* kv_dtype, double tp, const char* profile, double* result);

/** roofline_spec_step_ms with the layout of the replica's tp GPUs appended: ep, dp_attention and pp (LAYOUTS above; all 1
** gives roofline_spec_step_ms). ROOFLINE_ERROR_ARGUMENT naming the one that does not fit the model or tp. Since 0.6. */
ROOFLINE_API int roofline_spec_step_ms_v2(const char* model, const char* draft_model, const char* gpu, double batch,
                                          double ctx, double draft_len, double acceptance, const char* weight_dtype,
                                          const char* kv_dtype, double tp, const char* profile, double ep,
                                          double dp_attention, double pp, double* result);

/* ---- Calibration ------------------------------------------------------------------------------- */

/**
** ROOFLINE_CALIBRATE(measurements; [base_profile=typical]): a profile fitted on measured rows, as *result, a
** profile text that every formula's `profile` argument takes (docs/formulas.md, "Profiles as text"), e.g.
** "fit(typical; n=3; mdape=0.0%; loo=17.2%): bw=0.9844, mfu=0.5855, link=0.5, step_ms=0.6928, allreduce_us=0,
** mfu_tokens=57.2226, attn=0.6222, layer_us=65.6143, alltoall_us=10, ep_imbalance=1.11, overlap_ep=0". *result is valid until this thread's next call into the library.
**
**   measurements  a table (ROOFLINE_TYPE_TABLE): rows separated by '\n', cells by '\t', 9 columns in this order:
**                 model, gpu, weight_dtype, kv_dtype, tp, batch, context, metric, value. metric "step_ms": one
**                 decode step of `batch` sequences at `context` tokens, as ROOFLINE_STEP_MS computes it; "ttft_ms":
**                 the prefill of `batch` prompts of `context` tokens, as ROOFLINE_TTFT_MS; value: the measured
**                 time, ms. Empty rows and a first row without a number (a header) are skipped; an empty
**                 weight_dtype, kv_dtype or tp takes ROOFLINE_STEP_MS's default. At most 100000 rows.
**   base_profile  the profile the fit starts from and whose parameters it keeps where the rows do not tell them
**                 (a name or a profile text); NULL is refused, "" is the default, typical.
**
** Fits seven parameters (bw, mfu, link, step_ms, allreduce_us; since 0.9 also mfu_tokens and attn; layer_us,
** alltoall_us and, since 0.10, expert_us stay the base's) by the library's one fitter, which also fits the built-in profiles; the fit holds for
** every GPU (a base profile's variant per GPU vendor is not carried over); the text carries the rows' count, the median absolute error on them (mdape) and in
** leave-one-out (loo), and the fitted parameters to 4 significant digits. Deterministic.
** Errors: ROOFLINE_ERROR_NO_SOLUTION for fewer than 3 measured rows; ROOFLINE_ERROR_ARGUMENT or
** ROOFLINE_ERROR_UNKNOWN_ID naming "measurements" with the row (1: the table's first) and its column, e.g.
** "row 7, model: no model 'llama-9b' ..."; ROOFLINE_WHY says the same. Since 0.8.
*/
ROOFLINE_API int roofline_calibrate(const char* measurements, const char* base_profile, const char** result);

/**
** ROOFLINE_CALIBRATE_ROWS(measurements; [base_profile=typical]): how well roofline_calibrate()'s fit of the same
** arguments predicts each row, as a new array of nine columns in *result (free it with roofline_array_free()): a
** header row ("row", "model", "gpu", "metric", "measured_ms", "predicted_ms", "loo_ms", "error_percent",
** "loo_error_percent"), then one row per measured row: its place in `measurements` (1: the first), model, gpu,
** metric, the measured ms, the fitted profile's ms, the ms of the fit without that row (leave-one-out), and both
** errors in percent (100 x (predicted / measured - 1)). The same errors as roofline_calibrate(); the two calls on the
** same arguments, one after the other on one thread, fit once. Since 0.8.
*/
ROOFLINE_API int roofline_calibrate_rows(const char* measurements, const char* base_profile, roofline_array** result);

/* ---- Why a formula fails ---------------------------------------------------------------------- */

/**
** ROOFLINE_WHY(formula; arguments...): why a call of `formula` with these `nargs` arguments fails, in words,
** as *result: "ok" when it succeeds, else roofline_errmsg() of that call without its leading "<FORMULA>: ",
** e.g. ROOFLINE_WHY("ROOFLINE_FIT_BATCH"; "llama-3-70b"; "h100-sxm"; 4096) gives "the weights (141 GB per
** GPU) do not fit in 0.9 of the 80 GB of a 'h100-sxm'". An unknown model or GPU adds where the spreadsheet
** lists them: "... (see ROOFLINE_MODELS())". The call itself succeeds whatever `formula` and `args` are
** (an unknown formula is explained too); it fails only for a NULL pointer. *result is valid until this
** thread's next call into the library (like roofline_errmsg()). `args` may be NULL when `nargs` is 0.
** roofline_call("ROOFLINE_WHY", ...) works as well, with the formula's name as its first argument.
** Since 0.3.
*/
ROOFLINE_API int roofline_why(const char* formula, const roofline_value* args, size_t nargs, const char** result);

/* ---- Extending the catalog (host programs only: no formula reads a file) ---------------------- */

/**
** Adds, or replaces, the model `id` (1 to 100 characters; ids are case-insensitive) read from the text of
** a Hugging Face config.json: llama, mistral, mixtral, qwen2/3 (dense, MoE, Next), qwen3_5, gemma2/3,
** deepseek_v3/v32/v4, kimi_k2, kimi_linear, kimi_k3, glm4_moe, glm_moe_dsa, gpt_oss, llama4, minimax_m2,
** minimax_m3 (since 0.8), nemotron_h, gptj, mpt and their relatives (docs/formulas.md, "Models from config.json"); a multimodal
** config's text_config is read.
** It reads no file: the host reads it and passes its text. The model is then usable wherever a catalog id
** is, by every thread, for the life of the process. The checkpoint's formats come from its
** quantization_config (weight format "native").
** Errors: ROOFLINE_ERROR_NULL, ROOFLINE_ERROR_ARGUMENT (not JSON, a field missing or wrong, or a feature
** the importer does not read: the message names the field, e.g. "config.json field
** 'sparse_attention_config.sparse_init_tokens' is not supported (model_type 'minimax_m3')"; such a config is
** never read as something else).
*/
ROOFLINE_API int roofline_model_import_hf_config(const char* id, const char* config_json);

/**
** roofline_model_import_hf_config() with the text of the checkpoint's hf_quant_config.json beside it
** (NVIDIA ModelOpt checkpoints keep their formats there, not in config.json: quant_algo "NVFP4" or "FP8",
** exclude_modules); NULL or "" is none, as roofline_model_import_hf_config(). Since 0.5.
*/
ROOFLINE_API int roofline_model_import_hf_checkpoint(const char* id, const char* config_json,
                                                     const char* hf_quant_config_json);

/**
** Adds, or replaces, the entries of a catalog given as text in the format of the built-in files
** (libroofline/catalog/gpus.json and models.json): {"gpus": [...], "models": [...]}, either list optional.
** Since 0.8 also named profiles, "profiles": [{"id": "lab-vllm", "profile": "fit(...): bw=..., ...",
** "source": "..."}]: a profile text (ROOFLINE_CALIBRATE's) under a name of its own that every formula's
** `profile` argument then takes (1 to 100 characters, case-insensitive, not a built-in profile's name; a
** bad profile text is ROOFLINE_ERROR_ARGUMENT naming the entry and the parameter, and adds nothing of the
** file). `roofline calibrate --save NAME` writes such a file into the user folder.
** Writes the number of entries added to *added (which may be NULL).
*/
ROOFLINE_API int roofline_catalog_add_json(const char* catalog_json, size_t* added);

/**
** Loads the user's own catalog folder, the one that every host reads the same way: each
** <folder>/catalog/<name>.json, a catalog as roofline_catalog_add_json() takes it, then each
** <folder>/models/<id>.json, a Hugging Face config.json as roofline_model_import_hf_config() takes it,
** the file's name without ".json" its id (so a model file replaces a catalog entry of the same id). Files
** are read in the order of their names; others (a name not ending in ".json", or beginning with '.', a
** folder) are left alone. Writes the number of entries added to *added (which may be NULL), whatever
** the status: the entries of the files that loaded.
**
** `folder` NULL (or "") means the default: $XDG_CONFIG_HOME/libroofline when XDG_CONFIG_HOME is an
** absolute path, else $HOME/.config/libroofline; when neither variable is set, nothing is read. A folder,
** or a catalog/ or models/ inside it, that does not exist is not an error: it adds nothing.
**
** The only function of the library that reads files, and for hosts only: the Calc add-in calls it once
** when the office creates it, the CLI before a subcommand, the Python package on import. No formula
** calls it, and no formula argument can name a file: a workbook that is shared never makes anyone's
** machine read one. Nothing it reads is written or kept but the entries it adds; it allocates nothing
** for the caller. It may be called from any thread, also while others compute (as
** roofline_catalog_add_json()); it reads XDG_CONFIG_HOME and HOME with getenv().
**
** Errors: a file that cannot be read or does not load does not stop the others. The status is then
** that of the first such file (ROOFLINE_ERROR_ARGUMENT for a file that cannot be read, or is not JSON
** or lacks a field); roofline_errdetail() gives one line per such file, "<path>: <reason>", lines
** separated by '\n', e.g. "/home/me/.config/libroofline/models/my-8b.json: config.json has no
** 'hidden_size'", and roofline_errmsg() the same after "roofline_catalog_load_user_folder: ". A host
** reports them (the CLI and the add-in as warnings on stderr) and goes on with what loaded.
** Since 0.5.
*/
ROOFLINE_API int roofline_catalog_load_user_folder(const char* folder, size_t* added);

/**
** The user folder that roofline_catalog_load_user_folder(NULL, ...) reads: $XDG_CONFIG_HOME/libroofline when
** XDG_CONFIG_HOME is an absolute path, else $HOME/.config/libroofline; "" when neither variable is set. It
** may not exist. For hosts that write into it (`roofline calibrate --save`). Valid until this thread's next
** call into the library. Since 0.8.
*/
ROOFLINE_API const char* roofline_user_folder(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ROOFLINE_H */

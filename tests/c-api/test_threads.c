/*
** The C ABI from 8 threads at once: every thread calls every formula on a grid of good and bad inputs
** and must get exactly what a single thread got first (status, result, error message, argument).
** Run in the plain suite and under ThreadSanitizer (scripts/test).
*/
#include <roofline.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define ROUNDS 20 /* ROOFLINE_THREAD_ROUNDS overrides it (the tsan test preset: 5) */
static size_t rounds = ROUNDS;
#define MAX_ARGS 32 /* ROOFLINE_SIMULATE has 28; main() refuses a formula with more */

typedef struct {
    const char* name;
    roofline_value args[MAX_ARGS];
    size_t nargs;
    int status;
    double result; /* first cell of the result, when numeric */
    char text[64]; /* first cell of the result, when text */
    char errmsg[256];
    char errarg[64];
} Case;

static Case* cases;
static size_t ncases;

static const double kValues[] = {1, 2, 64, 4096, 0.5, 0, -1, 1e300, NAN, INFINITY};

/* Calls a case and records what came back. */
static void run(const Case* c, Case* out) {
    roofline_array* r = NULL;
    *out = *c;
    out->status = roofline_call(c->name, c->args, c->nargs, &r);
    out->result = 0;
    out->text[0] = '\0';
    if (out->status == ROOFLINE_OK) {
        if (roofline_array_is_text(r, 0, 0)) {
            strncpy(out->text, roofline_array_text(r, 0, 0), sizeof out->text - 1);
            out->text[sizeof out->text - 1] = '\0';
        } else {
            out->result = roofline_array_number(r, 0, 0);
        }
    }
    roofline_array_free(r);
    strncpy(out->errmsg, roofline_errmsg(), sizeof out->errmsg - 1);
    out->errmsg[sizeof out->errmsg - 1] = '\0';
    strncpy(out->errarg, roofline_errarg(), sizeof out->errarg - 1);
    out->errarg[sizeof out->errarg - 1] = '\0';
}

static void* worker(void* arg) {
    size_t* mismatches = (size_t*)arg;
    size_t round, i;
    for (round = 0; round < rounds; ++round) {
        for (i = 0; i < ncases; ++i) {
            /* Each thread walks the cases from its own starting point, so that different formulas overlap. */
            const Case* want = &cases[(i + (size_t)round * 7) % ncases];
            Case got;
            run(want, &got);
            if (got.status != want->status || memcmp(&got.result, &want->result, sizeof got.result) != 0 ||
                strcmp(got.text, want->text) != 0 || strcmp(got.errmsg, want->errmsg) != 0 ||
                strcmp(got.errarg, want->errarg) != 0)
                ++*mismatches;
        }
    }
    return NULL;
}

/* Two versions of a model and a GPU that a host adds, and replaces. */
#define LAB_MODEL(layers)                                                                                    \
    "{\"id\": \"lab-model\", \"config\": {\"hidden_size\": 4096, \"num_hidden_layers\": " #layers                   \
    ", \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"intermediate_size\": 14336, \"vocab_size\": 128256}}"
#define LAB_GPU(tbs) "{\"id\": \"lab-gpu\", \"tflops\": {\"bf16\": 989}, \"hbm_tbs\": " #tbs ", \"hbm_gb\": 80}"
static const char* const kVersions[2] = {"{\"models\": [" LAB_MODEL(32) "], \"gpus\": [" LAB_GPU(3.35) "]}",
                                         "{\"models\": [" LAB_MODEL(40) "], \"gpus\": [" LAB_GPU(2) "]}"};
static const char* const kModels[2] = {"{\"models\": [" LAB_MODEL(32) "]}", "{\"models\": [" LAB_MODEL(40) "]}"};
static double g_expected[2][2]; /* [model version][GPU version] */
static int g_stop; /* set once the readers are done (atomically: the replacer reads it meanwhile) */

static void* reader(void* arg) {
    size_t* mismatches = (size_t*)arg;
    int i;
    for (i = 0; i < 2000; ++i) {
        double ms = 0;
        if (roofline_step_ms("lab-model", "lab-gpu", 64, 4096, "bf16", "", 1, "typical", &ms) != ROOFLINE_OK ||
            (ms != g_expected[0][0] && ms != g_expected[0][1] && ms != g_expected[1][0] && ms != g_expected[1][1]))
            ++*mismatches;
    }
    return NULL;
}

static void* replacer(void* arg) {
    int i = 0;
    (void)arg;
    while (!__atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) roofline_catalog_add_json(kVersions[i++ % 2], NULL);
    return NULL;
}

/* Model arguments that are config.json texts (more than the cache keeps), and their single-threaded results. */
#define CONFIG_TEXTS 100
static char g_configs[CONFIG_TEXTS][256];
static double g_config_ms[CONFIG_TEXTS];

typedef struct {
    size_t thread;
    size_t mismatches;
} ConfigReader;

static void* config_reader(void* arg) {
    ConfigReader* r = (ConfigReader*)arg;
    size_t i, k;
    for (i = 0; i < 5 * CONFIG_TEXTS; ++i) {
        double ms = 0;
        k = (i * 7 + r->thread * 13) % CONFIG_TEXTS; /* a different order in each thread */
        if (roofline_step_ms(g_configs[k], "h100-sxm", 8, 1024, "", "", 1, "", &ms) != ROOFLINE_OK ||
            ms != g_config_ms[k])
            ++r->mismatches;
    }
    return NULL;
}

int main(void) {
    size_t f, v, j, t, total = 0, n = 0;
    pthread_t threads[THREADS];
    size_t mismatches[THREADS] = {0};
    const size_t nvalues = sizeof kValues / sizeof kValues[0];
    const char* rounds_env = getenv("ROOFLINE_THREAD_ROUNDS");
    if (rounds_env && atoi(rounds_env) > 0) rounds = (size_t)atoi(rounds_env);
    int passed = 0, failed = 0;

    for (f = 0; f < roofline_formula_count(); ++f) total += roofline_formula_at(f)->arg_count * nvalues + 1;
    cases = calloc(total, sizeof *cases);
    if (!cases) return 1;
    for (f = 0; f < roofline_formula_count(); ++f) {
        const roofline_formula_info* info = roofline_formula_at(f);
        if (info->arg_count > MAX_ARGS) {
            printf("FAIL %s has %u arguments: raise MAX_ARGS\n", info->name, (unsigned)info->arg_count);
            return 1;
        }
        /* A valid call: the defaults, and 2 for every required argument; one GPU (ROOFLINE_PLAN's optional gpu
        ** too, or the plan searches the whole catalog in every case). */
        Case base;
        memset(&base, 0, sizeof base);
        base.name = info->name;
        base.nargs = info->arg_count;
        for (j = 0; j < info->arg_count; ++j) {
            const roofline_arg_info* a = info->args[j];
            base.args[j].number = a->optional ? a->default_number : 2;
            if (a->type == ROOFLINE_TYPE_TABLE) /* three measured steps: a fit of its own in every thread */
                base.args[j].text = "llama-3-8b\th200\t\t\t\t1\t1024\tstep_ms\t6.0\n"
                                    "llama-3-8b\th200\t\t\t\t1\t4096\tstep_ms\t7.1\n"
                                    "llama-3-8b\th200\t\t\t\t8\t4096\tstep_ms\t7.4\n";
            else if (a->type == ROOFLINE_TYPE_TEXT)
                base.args[j].text = strcmp(a->name, "gpu") == 0     ? "a100-sxm-80gb"
                                    : a->optional                   ? a->default_text
                                    : strcmp(a->name, "model") == 0 ? "mixtral-8x7b"
                                    : strcmp(info->name, "ROOFLINE_GPU") == 0 ? "bf16_tflops"
                                                                           : "kv_kib_per_token";
        }
        cases[n++] = base;
        /* Then each argument in turn takes each value of the grid. */
        for (j = 0; j < info->arg_count; ++j)
            for (v = 0; v < nvalues; ++v) {
                cases[n] = base;
                /* An empty optional gpu is ROOFLINE_PLAN's whole catalog: once in the grid, not in every value. */
                const int whole_catalog = info->args[j]->optional && strcmp(info->args[j]->name, "gpu") == 0 && v > 1;
                if (info->args[j]->type == ROOFLINE_TYPE_TEXT || info->args[j]->type == ROOFLINE_TYPE_TABLE)
                    cases[n].args[j].text = v % 2 || whole_catalog ? "unknown" : "";
                else cases[n].args[j].number = kValues[v];
                ++n;
            }
    }
    ncases = n;
    for (n = 0; n < ncases; ++n) run(&cases[n], &cases[n]); /* single-threaded: the expected results */

    for (t = 0; t < THREADS; ++t)
        if (pthread_create(&threads[t], NULL, worker, &mismatches[t]) != 0) return 1;
    for (t = 0; t < THREADS; ++t) {
        pthread_join(threads[t], NULL);
        if (mismatches[t] == 0) {
            ++passed;
        } else {
            ++failed;
            fprintf(stderr, "thread %zu: %zu results differ from the single-threaded ones\n", t, mismatches[t]);
        }
    }
    printf("%zu cases x %zu rounds in each of %d threads\n", ncases, rounds, THREADS);
    free(cases);

    /* A host replaces a model and a GPU it added while 8 threads compute with them: each call sees one
    ** version of each entry or the other, never a mixture nor a freed one. */
    for (j = 0; j < 2; ++j) {
        if (roofline_catalog_add_json(kVersions[j], NULL) != ROOFLINE_OK ||
            roofline_step_ms("lab-model", "lab-gpu", 64, 4096, "bf16", "", 1, "typical", &g_expected[j][j]) != ROOFLINE_OK)
            return 1;
    }
    /* The mixed versions (the model of one, the GPU of the other), which a call may see between two lookups. */
    if (roofline_catalog_add_json(kModels[0], NULL) != ROOFLINE_OK ||
        roofline_step_ms("lab-model", "lab-gpu", 64, 4096, "bf16", "", 1, "typical", &g_expected[0][1]) != ROOFLINE_OK ||
        roofline_catalog_add_json(kVersions[0], NULL) != ROOFLINE_OK ||
        roofline_catalog_add_json(kModels[1], NULL) != ROOFLINE_OK ||
        roofline_step_ms("lab-model", "lab-gpu", 64, 4096, "bf16", "", 1, "typical", &g_expected[1][0]) != ROOFLINE_OK)
        return 1;
    {
        pthread_t writer;
        size_t replaced_mismatches[THREADS] = {0};
        for (t = 0; t < THREADS; ++t)
            if (pthread_create(&threads[t], NULL, reader, &replaced_mismatches[t]) != 0) return 1;
        if (pthread_create(&writer, NULL, replacer, NULL) != 0) return 1;
        for (t = 0; t < THREADS; ++t) {
            pthread_join(threads[t], NULL);
            if (replaced_mismatches[t] == 0) {
                ++passed;
            } else {
                ++failed;
                fprintf(stderr, "thread %zu: %zu results of a replaced entry are neither version's\n", t,
                        replaced_mismatches[t]);
            }
        }
        __atomic_store_n(&g_stop, 1, __ATOMIC_RELEASE);
        pthread_join(writer, NULL);
    }
    /* 8 threads read config texts at once, the cache dropping and reading them again meanwhile. */
    {
        ConfigReader config_readers[THREADS];
        for (j = 0; j < CONFIG_TEXTS; ++j) {
            snprintf(g_configs[j], sizeof g_configs[j],
                     "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"num_hidden_layers\": %u, "
                     "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"intermediate_size\": 14336, "
                     "\"vocab_size\": 128256}",
                     (unsigned)(j + 1));
            if (roofline_step_ms(g_configs[j], "h100-sxm", 8, 1024, "", "", 1, "", &g_config_ms[j]) != ROOFLINE_OK) {
                fprintf(stderr, "config text %zu: %s\n", j, roofline_errmsg());
                return 1;
            }
        }
        for (t = 0; t < THREADS; ++t) {
            config_readers[t].thread = t;
            config_readers[t].mismatches = 0;
            if (pthread_create(&threads[t], NULL, config_reader, &config_readers[t]) != 0) return 1;
        }
        for (t = 0; t < THREADS; ++t) {
            pthread_join(threads[t], NULL);
            if (config_readers[t].mismatches == 0) {
                ++passed;
            } else {
                ++failed;
                fprintf(stderr, "thread %zu: %zu results of config texts differ from the single-threaded ones\n", t,
                        config_readers[t].mismatches);
            }
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

// roofline: the command line of libroofline. A host of the C ABI only: it parses options (CLI11),
// calls the library, and prints (fmt) aligned tables or, with --json, JSON. It computes nothing.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "calls.hpp"
#include "svg.hpp"

namespace cli {

std::string option_name(const std::string& arg) {
    std::string s = "--" + arg;
    for (char& c : s)
        if (c == '_') c = '-';
    return s;
}

Result call(const std::string& name, const std::vector<Cell>& args, bool name_options) {
    std::vector<roofline_value> in;
    for (const Cell& a : args) {
        if (const auto* s = std::get_if<std::string>(&a)) in.push_back({0, s->c_str()});
        else in.push_back({std::get<double>(a), nullptr});
    }
    roofline_array* out = nullptr;
    const int status = roofline_call(name.c_str(), in.data(), in.size(), &out);
    if (status != ROOFLINE_OK) {
        const std::string arg = roofline_errarg();
        const int code = status == ROOFLINE_ERROR_ARGUMENT || status == ROOFLINE_ERROR_UNKNOWN_FORMULA ||
                                 status == ROOFLINE_ERROR_ARITY || status == ROOFLINE_ERROR_UNKNOWN_ID
                             ? kBadValue
                         : status == ROOFLINE_ERROR_NO_SOLUTION || status == ROOFLINE_ERROR_RANGE ? kNoSolution
                                                                                                   : kInternal;
        throw Failure{code, arg.empty() || !name_options ? std::string(roofline_errmsg())
                                                         : fmt::format("{}: {}", option_name(arg), roofline_errmsg())};
    }
    Result r;
    for (size_t i = 0; i < roofline_array_rows(out); ++i) {
        auto& row = r.rows.emplace_back();
        for (size_t j = 0; j < roofline_array_cols(out); ++j) {
            if (roofline_array_is_text(out, i, j)) row.emplace_back(std::string(roofline_array_text(out, i, j)));
            else row.emplace_back(roofline_array_number(out, i, j));
        }
    }
    roofline_array_free(out);
    return r;
}

Result Values::call(const std::string& formula) const {
    const roofline_formula_info* f = roofline_formula_find(formula.c_str());
    std::vector<Cell> args;
    for (size_t i = 0; i < f->arg_count; ++i) {
        if (f->args[i]->type == ROOFLINE_TYPE_TEXT) args.emplace_back(text_at(f->args[i]->name));
        else args.emplace_back(at(f->args[i]->name));
    }
    return cli::call(formula, args);
}

namespace {

// ---- Options from the formula table ----------------------------------------------------------

/// Adds one option per argument of `formula` (skipping those already added): required unless the
/// table has a default, which becomes the option's default. `aliases` maps an argument to a short name.
void add_formula_options(CLI::App& cmd, Values& values, const char* formula,
                         const std::map<std::string, std::string>& aliases = {}) {
    const roofline_formula_info* f = roofline_formula_find(formula);
    for (size_t i = 0; i < f->arg_count; ++i) {
        const roofline_arg_info& a = *f->args[i];
        if (cmd.get_option_no_throw(option_name(a.name))) continue;
        std::string names = option_name(a.name);
        if (auto it = aliases.find(a.name); it != aliases.end()) names = it->second + "," + names;
        CLI::Option* opt = nullptr;
        if (a.type == ROOFLINE_TYPE_TEXT) {
            std::string& v = values.text(a.name);
            opt = cmd.add_option(names, v, fmt::format("{} [{}]", a.description_en, a.unit));
            if (a.optional) {
                v = a.default_text ? a.default_text : "";
                if (a.default_label) opt->default_str(fmt::format("same as {}", option_name(a.default_label)));
                else opt->capture_default_str();
            }
        } else {
            double& v = values[a.name];
            opt = cmd.add_option(names, v, fmt::format("{} [{}]", a.description_en, a.unit));
            if (a.optional) {
                v = a.default_number;
                opt->capture_default_str();
            }
        }
        if (!a.optional) opt->required();
    }
}

// ---- Output -------------------------------------------------------------------------------------

struct Line {
    std::string label;
    std::string json_key;
    std::optional<double> value;  ///< nullopt: no answer (printed with `none`)
    std::string unit;
    std::string none = "none";
};

void print(const std::vector<Line>& lines, bool json, const std::string& title) {
    if (json) {
        nlohmann::json j = nlohmann::json::object();
        for (const Line& l : lines) j[l.json_key] = l.value ? nlohmann::json(*l.value) : nlohmann::json(nullptr);
        fmt::print("{}\n", j.dump(2));
        return;
    }
    fmt::print("{}\n", title);
    size_t width = 0;
    for (const Line& l : lines) width = std::max(width, l.label.size());
    for (const Line& l : lines) {
        if (l.value) fmt::print("  {:<{}}  {:>12.6g} {}\n", l.label, width, *l.value, l.unit);
        else fmt::print("  {:<{}}  {}\n", l.label, width, l.none);
    }
}

/// A result that may legitimately have no answer (exit code kNoSolution): nullopt then.
std::optional<double> maybe(const std::function<Result()>& fn) {
    try {
        return fn().number();
    } catch (const Failure& f) {
        if (f.exit_code != kNoSolution) throw;
        return std::nullopt;
    }
}

std::string describe(const Values& v) {
    return fmt::format("{}B parameters at {} bytes each, {} TFLOP/s, {} TB/s", v.at("params_b"), v.at("bytes_per_param"),
                       v.at("tflops"), v.at("bw_tbs"));
}

// ---- Subcommands --------------------------------------------------------------------------------

void decode(const Values& v, bool json) {
    const std::vector<Line> lines = {
        {"step time (lower bound)", "step_ms", v.call("ROOFLINE_DECODE_MS").number(), "ms"},
        {"system throughput", "tokens_per_s", v.call("ROOFLINE_DECODE_TOKS").number(), "tokens/s"},
        {"arithmetic intensity", "ai_flop_per_byte", v.call("ROOFLINE_DECODE_AI").number(), "FLOP/byte"},
        {"balance point", "balance_flop_per_byte",
         call("ROOFLINE_BALANCE", {v.at("tflops"), v.at("bw_tbs")}).number(), "FLOP/byte"},
        {"weights", "weights_gb", v.call("ROOFLINE_WEIGHTS_GB").number(), "GB"},
        {"KV cache", "kv_gb", v.call("ROOFLINE_KV_GB").number(), "GB"},
        {"critical batch", "critical_batch", maybe([&] { return v.call("ROOFLINE_CRITICAL_BATCH"); }), "sequences",
         "never: each sequence's KV read outweighs its compute"},
    };
    print(lines, json,
          fmt::format("Decode step: batch {}, {} tokens of context; {}", v.at("batch"), v.at("ctx"), describe(v)));
}

void prefill(const Values& v, bool json) {
    print({{"prefill time (lower bound)", "prefill_ms", v.call("ROOFLINE_PREFILL_MS").number(), "ms"},
           {"weights", "weights_gb", v.call("ROOFLINE_WEIGHTS_GB").number(), "GB"}},
          json, fmt::format("Prefill of {} tokens; {}", v.at("tokens"), describe(v)));
}

void memory(const Values& v, bool json) {
    print({{"weights", "weights_gb", v.call("ROOFLINE_WEIGHTS_GB").number(), "GB"},
           {"KV cache per sequence", "kv_gb_per_sequence",
            call("ROOFLINE_KV_GB", {1.0, v.at("ctx"), v.at("kv_kib_per_token")}).number(), "GB"},
           {"sequences that fit", "max_batch", v.call("ROOFLINE_MAX_BATCH").number(), "sequences"}},
          json, fmt::format("Memory: {} GB, {} tokens per sequence", v.at("mem_gb"), v.at("ctx")));
}

void roof(const Values& v, bool json) {
    const Result r = v.call("ROOFLINE_ROOF");
    const double balance = v.call("ROOFLINE_BALANCE").number();
    if (json) {
        nlohmann::json points = nlohmann::json::array();
        for (const auto& row : r.rows)
            points.push_back({{"ai_flop_per_byte", std::get<double>(row[0])},
                              {"attainable_tflops", std::get<double>(row[1])}});
        fmt::print("{}\n", nlohmann::json{{"balance_flop_per_byte", balance}, {"roof", points}}.dump(2));
        return;
    }
    fmt::print("Roofline of {} TFLOP/s, {} TB/s: balance point {:.6g} FLOP/byte\n", v.at("tflops"), v.at("tbs"), balance);
    fmt::print("  {:>14}  {:>14}\n  {:>14}  {:>14}\n", "FLOP/byte", "TFLOP/s", "---------", "-------");
    for (const auto& row : r.rows) fmt::print("  {:>14.6g}  {:>14.6g}\n", std::get<double>(row[0]), std::get<double>(row[1]));
}

void tables(const Values& v, const std::vector<double>& batches, double kv_ctx, bool json) {
    nlohmann::json out = nlohmann::json::array();
    if (!json) fmt::print("The article's batching tables: {}\n", describe(v));
    for (double ctx : {0.0, kv_ctx}) {
        Values t = v;
        t["ctx"] = ctx;
        const double weights_ms = call("ROOFLINE_MEMORY_MS", {t.call("ROOFLINE_WEIGHTS_GB").number() * 1e9, t.at("bw_tbs")}).number();
        nlohmann::json rows = nlohmann::json::array();
        if (!json) {
            fmt::print("\n{}\n", ctx == 0 ? "Decode without KV"
                                          : fmt::format("Decode with {} tokens of KV per sequence ({} KiB/token)", ctx,
                                                        t.at("kv_kib_per_token")));
            fmt::print("  {:>6}  {:>12}  {:>10}  {:>10}  {:>11}  {:>14}\n", "batch", "weights read", "KV read",
                       "compute", "step bound", "throughput");
        }
        for (double b : batches) {
            t["batch"] = b;
            const double kv_ms = call("ROOFLINE_MEMORY_MS", {t.call("ROOFLINE_KV_GB").number() * 1e9, t.at("bw_tbs")}).number();
            // The article's compute column: 2 FLOP per parameter per token, for `batch` tokens.
            const double compute_ms = call("ROOFLINE_COMPUTE_MS", {2 * t.at("params_b") * 1e9 * b, t.at("tflops")}).number();
            const double step_ms = t.call("ROOFLINE_DECODE_MS").number();
            const double toks = t.call("ROOFLINE_DECODE_TOKS").number();
            rows.push_back({{"batch", b}, {"weights_ms", weights_ms}, {"kv_ms", kv_ms}, {"compute_ms", compute_ms},
                            {"step_ms", step_ms}, {"tokens_per_s", toks}});
            if (!json)
                fmt::print("  {:>6}  {:>9.2f} ms  {:>7.2f} ms  {:>7.3f} ms  {:>8.2f} ms  {:>8.0f} tok/s\n", b, weights_ms,
                           kv_ms, compute_ms, step_ms, toks);
        }
        const auto critical = maybe([&] { return t.call("ROOFLINE_CRITICAL_BATCH"); });
        if (!json) {
            if (critical) fmt::print("  Compute bound from a batch of {} sequences.\n", *critical);
            else fmt::print("  No batch is compute bound: each sequence's KV read outweighs its compute.\n");
        }
        out.push_back({{"ctx", ctx}, {"rows", rows},
                       {"critical_batch", critical ? nlohmann::json(*critical) : nlohmann::json(nullptr)}});
    }
    if (json) fmt::print("{}\n", out.dump(2));
}

void formula(const std::string& name, const std::vector<std::string>& raw, bool json) {
    const roofline_formula_info* f = roofline_formula_find(name.c_str());
    if (!f) throw Failure{kBadValue, fmt::format("no formula named '{}' (see: roofline formulas)", name)};
    std::vector<Cell> args;
    for (size_t i = 0; i < raw.size(); ++i) {
        const bool text = i < f->arg_count && f->args[i]->type == ROOFLINE_TYPE_TEXT;
        if (text) {
            args.emplace_back(raw[i]);
            continue;
        }
        char* end = nullptr;
        const double d = std::strtod(raw[i].c_str(), &end);
        if (raw[i].empty() || *end != '\0')
            throw Failure{kUsage, fmt::format("argument {} ('{}') of {} is not a number", i + 1, raw[i], f->name)};
        args.emplace_back(d);
    }
    const Result r = call(f->name, args, false);  // positional: the library's message names the argument
    auto cell_json = [](const Cell& c) {
        return std::holds_alternative<double>(c) ? nlohmann::json(std::get<double>(c)) : nlohmann::json(std::get<std::string>(c));
    };
    auto cell_text = [](const Cell& c) {
        return std::holds_alternative<double>(c) ? fmt::format("{:.10g}", std::get<double>(c)) : std::get<std::string>(c);
    };
    if (json) {
        nlohmann::json j;
        if (r.rows.size() == 1 && r.rows[0].size() == 1) j = cell_json(r.rows[0][0]);
        else
            for (const auto& row : r.rows) {
                nlohmann::json jr = nlohmann::json::array();
                for (const Cell& c : row) jr.push_back(cell_json(c));
                j.push_back(jr);
            }
        fmt::print("{}\n", nlohmann::json{{"formula", f->name}, {"result", j}, {"unit", f->result_unit}}.dump(2));
        return;
    }
    for (const auto& row : r.rows) {
        std::string line;
        for (const Cell& c : row) line += (line.empty() ? "" : "\t") + cell_text(c);
        fmt::print("{}\n", line);
    }
}

void formulas(bool json) {
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < roofline_formula_count(); ++i) {
        const roofline_formula_info* f = roofline_formula_at(i);
        std::string sig;
        nlohmann::json args = nlohmann::json::array();
        for (size_t j = 0; j < f->arg_count; ++j) {
            const roofline_arg_info& a = *f->args[j];
            sig += (j ? "; " : "") + (a.optional ? fmt::format("[{}={}]", a.name, a.default_number) : std::string(a.name));
            args.push_back({{"name", a.name}, {"unit", a.unit}, {"optional", a.optional != 0},
                            {"default", a.optional ? nlohmann::json(a.default_number) : nlohmann::json(nullptr)}});
        }
        if (json) out.push_back({{"name", f->name}, {"unit", f->result_unit}, {"description", f->description_en}, {"args", args}});
        else fmt::print("{}({})\n    {}\n", f->name, sig, f->description_en);
    }
    if (json) fmt::print("{}\n", out.dump(2));
}

std::string read_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw Failure{kIo, fmt::format("cannot read {}", path)};
    std::string text;
    char buf[65536];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    return text;
}

std::string deployment(const Values& v) {
    std::string s = fmt::format("{} on {}, weights {}", v.text_at("model"), v.text_at("gpu"), v.text_at("weight_dtype"));
    if (v.at("tp") > 1) s += fmt::format(", {} GPUs in tensor parallel", v.at("tp"));
    return s;
}

void step(const Values& v, bool json) {
    const Result b = v.call("ROOFLINE_STEP_BREAKDOWN");
    const std::vector<Line> lines = {
        {"step time", "step_ms", v.call("ROOFLINE_STEP_MS").number(), "ms"},
        {"system throughput", "tokens_per_s", v.call("ROOFLINE_STEP_TOKS").number(), "tokens/s"},
    };
    if (json) {
        nlohmann::json j = nlohmann::json::object();
        for (const Line& l : lines) j[l.json_key] = *l.value;
        j["profile"] = v.text_at("profile");
        nlohmann::json ops = nlohmann::json::array();
        for (size_t r = 1; r < b.rows.size(); ++r)
            ops.push_back({{"operator", std::get<std::string>(b.rows[r][0])}, {"flop", std::get<double>(b.rows[r][1])},
                           {"bytes", std::get<double>(b.rows[r][2])}, {"ms", std::get<double>(b.rows[r][3])},
                           {"bound", std::get<std::string>(b.rows[r][4])}});
        j["operators"] = ops;
        fmt::print("{}\n", j.dump(2));
        return;
    }
    print(lines, false, fmt::format("Decode step: batch {}, {} tokens of context; {}; profile {}", v.at("batch"), v.at("ctx"),
                                   deployment(v), v.text_at("profile")));
    fmt::print("\n  {:<16} {:>12} {:>12} {:>10}  {}\n", "operator", "GFLOP", "MB", "ms", "bound");
    for (size_t r = 1; r < b.rows.size(); ++r)
        fmt::print("  {:<16} {:>12.3f} {:>12.2f} {:>10.4f}  {}\n", std::get<std::string>(b.rows[r][0]),
                   std::get<double>(b.rows[r][1]) / 1e9, std::get<double>(b.rows[r][2]) / 1e6, std::get<double>(b.rows[r][3]),
                   std::get<std::string>(b.rows[r][4]));
}

void ttft(const Values& v, bool json) {
    print({{"time to first token", "ttft_ms", v.call("ROOFLINE_TTFT_MS").number(), "ms"}}, json,
          fmt::format("Prefill of {} prompts of {} tokens; {}; profile {}", v.at("batch"), v.at("prompt_tokens"),
                      deployment(v), v.text_at("profile")));
}

void fit(const Values& v, bool json) {
    print({{"sequences that fit", "fit_batch", v.call("ROOFLINE_FIT_BATCH").number(), "sequences"}}, json,
          fmt::format("Memory: {} tokens per sequence, {} of each GPU's memory; {}", v.at("ctx"), v.at("mem_util"),
                      deployment(v)));
}

void catalog(const std::string& what, bool json) {
    const bool gpus = what == "gpus";
    const Result ids = call(gpus ? "ROOFLINE_GPUS" : "ROOFLINE_MODELS", {});
    const std::vector<std::string> fields = gpus ? std::vector<std::string>{"bf16_tflops", "fp8_tflops", "hbm_tbs", "hbm_gb", "interconnect_tbs"}
                                                 : std::vector<std::string>{"params_b", "active_params_b", "layers", "kv_heads", "kv_kib_per_token"};
    nlohmann::json out = nlohmann::json::array();
    if (!json) {
        fmt::print("{:<16}", "id");
        for (const auto& f : fields) fmt::print(" {:>16}", f);
        fmt::print("\n");
    }
    for (const auto& row : ids.rows) {
        const std::string id = std::get<std::string>(row[0]);
        nlohmann::json j = {{"id", id}};
        if (!json) fmt::print("{:<16}", id);
        for (const auto& f : fields) {
            std::optional<double> v;
            try {
                v = call(gpus ? "ROOFLINE_GPU" : "ROOFLINE_MODEL", {id, f}).number();
            } catch (const Failure& e) {
                if (e.exit_code != kNoSolution) throw;
            }
            j[f] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
            if (!json) fmt::print(" {:>16}", v ? fmt::format("{:.6g}", *v) : std::string("-"));
        }
        if (!json) fmt::print("\n");
        out.push_back(j);
    }
    if (json) fmt::print("{}\n", out.dump(2));
}

/// The chart of a catalog GPU with the operators of a catalog model's decode step and prefill on it.
void plot_model(const Values& v, const std::string& model, const std::string& gpu, const std::string& path) {
    PlotData d;
    d.tflops = call("ROOFLINE_GPU", {gpu, std::string("bf16_tflops")}).number();
    d.tbs = call("ROOFLINE_GPU", {gpu, std::string("hbm_tbs")}).number();
    d.balance = call("ROOFLINE_BALANCE", {d.tflops, d.tbs}).number();
    for (const auto& row : call("ROOFLINE_ROOF", {d.tflops, d.tbs, 0.1, 1e5, 200.0}).rows)
        d.roof.push_back({std::get<double>(row[0]), std::get<double>(row[1])});
    auto operators = [&](const std::string& phase, double batch, double ctx) {
        const Result b = call("ROOFLINE_STEP_BREAKDOWN", {model, gpu, batch, ctx, std::string("bf16"), std::string(""), 1.0,
                                                          std::string("bound")});
        for (size_t r = 1; r < b.rows.size(); ++r) {
            const double flop = std::get<double>(b.rows[r][1]), bytes = std::get<double>(b.rows[r][2]);
            if (!(flop > 0) || !(bytes > 0)) continue;
            const double ai = call("ROOFLINE_AI", {flop, bytes}).number();
            d.points.push_back({phase + ": " + std::get<std::string>(b.rows[r][0]), ai,
                                call("ROOFLINE_ATTAINABLE_TFLOPS", {ai, d.tflops, d.tbs}).number()});
        }
    };
    operators(fmt::format("decode b{} ctx{}", v.at("batch"), v.at("ctx")), v.at("batch"), v.at("ctx"));
    // The linear operators of a prefill of T tokens do the work of a decode step of batch T without KV.
    operators(fmt::format("prefill {} tok", v.at("tokens")), v.at("tokens"), 0);
    d.title = fmt::format("Roofline of {} (bf16 dense, HBM): operators of {}", gpu, model);
    if (!write_svg(path, d)) throw Failure{kIo, fmt::format("--svg: cannot write {}", path)};
}

void plot(const Values& v, const std::string& path) {
    PlotData d;
    d.tflops = v.at("tflops");
    d.tbs = v.at("bw_tbs");
    d.balance = call("ROOFLINE_BALANCE", {d.tflops, d.tbs}).number();
    for (const auto& row : call("ROOFLINE_ROOF", {d.tflops, d.tbs, 0.1, 1e5, 200.0}).rows)
        d.roof.push_back({std::get<double>(row[0]), std::get<double>(row[1])});
    auto point = [&](const std::string& label, double ai) {
        d.points.push_back({label, ai, call("ROOFLINE_ATTAINABLE_TFLOPS", {ai, d.tflops, d.tbs}).number()});
    };
    point(fmt::format("decode, batch {}, ctx {}", v.at("batch"), v.at("ctx")), v.call("ROOFLINE_DECODE_AI").number());
    point("decode, batch 1, no KV",
          call("ROOFLINE_DECODE_AI", {v.at("params_b"), 1.0, 0.0, v.at("kv_kib_per_token"), v.at("bytes_per_param")}).number());
    // A prefill of T tokens does the work of a decode step of batch T without KV: the weights are
    // read once and every token costs 2 FLOP per parameter.
    point(fmt::format("prefill, {} tokens", v.at("tokens")),
          call("ROOFLINE_DECODE_AI", {v.at("params_b"), v.at("tokens"), 0.0, v.at("kv_kib_per_token"), v.at("bytes_per_param")}).number());
    d.title = fmt::format("Roofline: {} TFLOP/s, {} TB/s; {}B model at {} bytes/parameter", d.tflops, d.tbs, v.at("params_b"),
                          v.at("bytes_per_param"));
    if (!write_svg(path, d)) throw Failure{kIo, fmt::format("--svg: cannot write {}", path)};
}

}  // namespace
}  // namespace cli

int main(int argc, char** argv) {
    using namespace cli;
    CLI::App app{fmt::format("roofline {}: lower bounds for LLM inference on GPUs, from the roofline model.", roofline_version())};
    app.footer("Units: parameters in billions, TB/s, TFLOP/s (dense), GB = 1e9 bytes, KV in KiB per token, ms, tokens/s.\n"
               "Exit codes: 0 ok, 2 usage, 3 a value the library refuses, 4 no answer for valid values, 5 cannot write a file.");
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string(roofline_version()));
    bool json = false;
    const std::map<std::string, std::string> aliases = {{"bw_tbs", "--bw"}, {"kv_kib_per_token", "--kv-kib"}};

    // A subcommand whose options are the arguments of a formula.
    auto formula_command = [&](const char* name, const char* about, Values& values, const char* formula) {
        CLI::App* cmd = app.add_subcommand(name, about);
        add_formula_options(*cmd, values, formula, aliases);
        return cmd;
    };
    Values dec, pre, mem, rf, st, tt, fb;
    auto* c_decode = formula_command("decode", "One decode step of a dense model: time, throughput, intensity, memory",
                                     dec, "ROOFLINE_DECODE_MS");
    auto* c_prefill = formula_command("prefill", "A prefill: its lower bound", pre, "ROOFLINE_PREFILL_MS");
    auto* c_memory = formula_command("memory", "What fits in GPU memory beside the weights", mem, "ROOFLINE_MAX_BATCH");
    auto* c_roof = formula_command("roof", "The roofline of a GPU: balance point and roof points", rf, "ROOFLINE_ROOF");
    auto* c_step = formula_command("step", "One decode step of a catalog model on a catalog GPU, operator by operator", st,
                                   "ROOFLINE_STEP_MS");
    auto* c_ttft = formula_command("ttft", "Time to first token: the prefill of a catalog model on a catalog GPU", tt,
                                   "ROOFLINE_TTFT_MS");
    auto* c_fit = formula_command("fit", "How many sequences fit in the GPUs' memory beside the weights", fb,
                                  "ROOFLINE_FIT_BATCH");

    Values tab;
    std::vector<double> batches = {1, 64};
    double kv_ctx = 4096;
    auto* c_tables = app.add_subcommand("tables", "The article's two batching tables (without KV, and with KV)");
    tab["params_b"] = 8;
    c_tables->add_option("--params-b", tab["params_b"], "Parameters, billions")->capture_default_str();
    c_tables->add_option("--batches", batches, "Batch sizes, one row each")->capture_default_str()->delimiter(',');
    c_tables->add_option("--kv-ctx", kv_ctx, "Context tokens per sequence of the second table")->capture_default_str();
    add_formula_options(*c_tables, tab, "ROOFLINE_DECODE_MS", aliases);
    tab["bw_tbs"] = roofline_formula_find("ROOFLINE_PREFILL_MS")->args[3]->default_number;  // H100 SXM, as in the article
    c_tables->get_option("--bw-tbs")->required(false)->capture_default_str();
    for (const char* o : {"--batch", "--ctx"}) c_tables->remove_option(c_tables->get_option(o));

    Values pl;
    std::string svg;
    auto* c_plot = app.add_subcommand("plot", "A log-log roofline chart (SVG) with decode and prefill on it");
    add_formula_options(*c_plot, pl, "ROOFLINE_DECODE_MS", aliases);
    pl["tokens"] = 2000;
    c_plot->add_option("--tokens", pl["tokens"], "Prompt tokens of the prefill point")->capture_default_str();
    c_plot->add_option("--svg", svg, "Where to write the chart")->required();
    std::string plot_model_id, plot_gpu_id;
    c_plot->add_option("--model", plot_model_id, "A catalog model: plot its operators (with --gpu) instead of the parameter-count model");
    c_plot->add_option("--gpu", plot_gpu_id, "A catalog GPU (with --model)");
    // With --model and --gpu the parameter-count options are not needed.
    for (const char* o : {"--params-b", "--bw-tbs"}) c_plot->get_option(o)->required(false);
    c_plot->get_option("--batch")->required(false)->default_val(1);
    c_plot->get_option("--ctx")->required(false)->default_val(0);

    std::string fname;
    std::vector<std::string> fargs;
    auto* c_formula = app.add_subcommand("formula", "Call any formula by name: roofline formula ROOFLINE_BALANCE 989 3.35");
    c_formula->add_option("name", fname, "Formula name, e.g. ROOFLINE_DECODE_MS")->required();
    c_formula->add_option("args", fargs, "Its arguments in formula order; trailing optional ones may be left out");

    auto* c_formulas = app.add_subcommand("formulas", "List every formula with its arguments and defaults");

    std::string which;
    auto* c_catalog = app.add_subcommand("catalog", "The catalog: roofline catalog gpus | roofline catalog models");
    c_catalog->add_option("which", which, "gpus or models")->required()->check(CLI::IsMember({"gpus", "models"}));

    // Extending the catalog is the host's job: the library reads no file.
    std::vector<std::string> catalogs, hf_configs;
    app.add_option("--catalog", catalogs, "Add a catalog file of your own (JSON, the format of libroofline/catalog/*.json)")
        ->check(CLI::ExistingFile);
    app.add_option("--hf-config", hf_configs,
                   "Add a model from a Hugging Face config.json, as ID=PATH (e.g. my-model=config.json)");

    for (auto* c : {c_decode, c_prefill, c_memory, c_roof, c_tables, c_formula, c_formulas, c_step, c_ttft, c_fit, c_catalog})
        c->add_flag("--json", json, "Print JSON instead of a table");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? kOk : kUsage;
    }
    try {
        for (const auto& path : catalogs) {
            const std::string text = read_file(path);
            size_t added = 0;
            if (roofline_catalog_add_json(text.c_str(), &added) != ROOFLINE_OK)
                throw Failure{kBadValue, fmt::format("--catalog {}: {}", path, roofline_errmsg())};
        }
        for (const auto& spec : hf_configs) {
            const auto eq = spec.find('=');
            if (eq == std::string::npos || eq == 0)
                throw Failure{kUsage, fmt::format("--hf-config {}: expected ID=PATH", spec)};
            const std::string text = read_file(spec.substr(eq + 1));
            if (roofline_model_import_hf_config(spec.substr(0, eq).c_str(), text.c_str()) != ROOFLINE_OK)
                throw Failure{kBadValue, fmt::format("--hf-config {}: {}", spec, roofline_errmsg())};
        }
        if (*c_decode) decode(dec, json);
        else if (*c_step) step(st, json);
        else if (*c_ttft) ttft(tt, json);
        else if (*c_fit) fit(fb, json);
        else if (*c_catalog) catalog(which, json);
        else if (*c_prefill) prefill(pre, json);
        else if (*c_memory) memory(mem, json);
        else if (*c_roof) roof(rf, json);
        else if (*c_tables) tables(tab, batches, kv_ctx, json);
        else if (*c_plot && !plot_model_id.empty()) {
            if (plot_gpu_id.empty()) throw Failure{kUsage, "plot: --model needs --gpu"};
            plot_model(pl, plot_model_id, plot_gpu_id, svg);
        } else if (*c_plot) {
            if (!c_plot->count("--params-b") || !c_plot->count("--bw-tbs"))
                throw Failure{kUsage, "plot: give --model and --gpu, or --params-b and --bw"};
            plot(pl, svg);
        }
        else if (*c_formula) formula(fname, fargs, json);
        else if (*c_formulas) formulas(json);
    } catch (const Failure& f) {
        fmt::print(stderr, "roofline: error: {}\n", f.message);
        return f.exit_code;
    } catch (const std::exception& e) {
        fmt::print(stderr, "roofline: internal error: {}\n", e.what());
        return kInternal;
    }
    return kOk;
}

// roofline calibrate FILE...: a profile fitted on measurements (ROOFLINE_CALIBRATE), from the files users already
// have: CSV in the formula's column order or under a header naming its columns (any order, others ignored),
// `vllm bench serve --save-result` / benchmark_serving.py JSON, SGLang bench_serving JSONL, `llama-bench -o json`, and pairs of `vllm bench latency --output-json` runs. Each file becomes
// measured rows (model, gpu, weight_dtype, kv_dtype, tp, batch, context, metric, value); the library fits them.
// What a file does not say comes from --model, --gpu, --tp, --weight-dtype, --kv-dtype (and --batch).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

struct CalibrateOptions {
    std::vector<std::string> files;
    std::string format = "auto";
    std::string model, gpu, weight_dtype, kv_dtype, base, save;  ///< base: ROOFLINE_CALIBRATE's default (setup)
    double tp = 0, batch = 0;
    bool json = false;
};

/// One measured row and where it came from.
struct Row {
    std::vector<Cell> cells;  ///< the 9 columns of ROOFLINE_CALIBRATE
    std::string source;       ///< "file.json", "file.jsonl:3", "file.csv:7"
};


std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// Whether the catalog knows a model or a GPU of that id (a cheap formula that takes one).
bool known_model(const std::string& id) {
    roofline_value args[2] = {{0, id.c_str()}, {0, "layers"}};
    roofline_array* r = nullptr;
    const bool ok = roofline_call("ROOFLINE_MODEL", args, 2, &r) == ROOFLINE_OK;
    roofline_array_free(r);
    return ok;
}
bool known_gpu(const std::string& id) {
    roofline_value args[2] = {{0, id.c_str()}, {0, "hbm_tbs"}};
    roofline_array* r = nullptr;
    const bool ok = roofline_call("ROOFLINE_GPU", args, 2, &r) == ROOFLINE_OK;
    roofline_array_free(r);
    return ok;
}

/// The model of a file: --model, else the catalog id its name gives ("openai/gpt-oss-120b" -> gpt-oss-120b;
/// "meta-llama/Llama-3.1-8B-Instruct" -> llama-3.1-8b), else a failure that asks for --model.
std::string model_of(const CalibrateOptions& o, const std::string& path, const std::string& named) {
    if (!o.model.empty()) return o.model;
    if (!named.empty()) {
        std::string id = lower(named.substr(named.rfind('/') + 1));
        for (const char* suffix : {"-instruct", "-chat", "-it", "-hf"})
            if (id.size() > std::strlen(suffix) && id.ends_with(suffix)) id.erase(id.size() - std::strlen(suffix));
        if (known_model(id)) return id;
        throw Failure{kUsage, "--model", fmt::format("{} names the model '{}', not a catalog id: give --model", file_name(path), named)};
    }
    throw Failure{kUsage, "--model", fmt::format("{} does not say its model: give --model", file_name(path))};
}

/// The GPU of a file: --gpu, else the catalog id its words give ("NVIDIA GeForce RTX 4090" -> rtx-4090).
std::string gpu_of(const CalibrateOptions& o, const std::string& path, const std::string& named = "") {
    if (!o.gpu.empty()) return o.gpu;
    if (!named.empty()) {
        std::string id = lower(named);
        for (const char* word : {"nvidia ", "geforce ", "amd ", "radeon ", "instinct "})
            for (std::size_t at; (at = id.find(word)) != std::string::npos;) id.erase(at, std::strlen(word));
        std::replace(id.begin(), id.end(), ' ', '-');
        if (known_gpu(id)) return id;
        throw Failure{kUsage, "--gpu", fmt::format("{} names the GPU '{}', not a catalog id: give --gpu", file_name(path), named)};
    }
    throw Failure{kUsage, "--gpu", fmt::format("{} does not say its GPU: give --gpu", file_name(path))};
}

Cell text_or_empty(const std::string& s) { return Cell(s); }
Cell tp_cell(const CalibrateOptions& o) { return o.tp > 0 ? Cell(o.tp) : Cell(std::string()); }

double number_at(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.contains(key) || !j[key].is_number())
        throw Failure{kBadValue, where, fmt::format("has no number '{}'", key)};
    return j[key].get<double>();
}

/// A decode step measured in a serving benchmark: TPOT at the concurrency the run kept, at the mean context of its
/// decode steps (prompt + half the output). A run without a concurrency limit (a request rate) kept, by Little's
/// law, request throughput x mean latency requests in flight.
Row serving_row(const CalibrateOptions& o, const std::string& path, const nlohmann::json& j, const std::string& where,
                const std::string& named_model) {
    const double completed = number_at(j, "completed", where);
    if (!(completed > 0)) throw Failure{kBadValue, where, "completed no request"};
    const double prompt = number_at(j, "total_input_tokens", where) / completed;
    const double output = number_at(j, "total_output_tokens", where) / completed;
    std::optional<double> tpot;
    for (const char* key : {"median_tpot_ms", "mean_tpot_ms", "median_itl_ms", "mean_itl_ms"})
        if (j.contains(key) && j[key].is_number()) {
            tpot = j[key].get<double>();
            break;
        }
    if (!tpot) throw Failure{kBadValue, where, "has no median_tpot_ms, mean_tpot_ms or median_itl_ms"};
    double batch = o.batch;
    if (!(batch > 0) && j.contains("max_concurrency") && j["max_concurrency"].is_number())
        batch = j["max_concurrency"].get<double>();
    if (!(batch > 0)) {
        const double duration = number_at(j, "duration", where);
        double latency_ms = 0;
        if (j.contains("mean_e2e_latency_ms") && j["mean_e2e_latency_ms"].is_number())
            latency_ms = j["mean_e2e_latency_ms"].get<double>();
        else
            latency_ms = number_at(j, "mean_ttft_ms", where) + *tpot * std::max(0.0, output - 1);
        batch = std::max(1.0, std::round(completed / duration * latency_ms / 1000));
    }
    return {{Cell(model_of(o, path, named_model)), Cell(gpu_of(o, path)), text_or_empty(o.weight_dtype),
             text_or_empty(o.kv_dtype), tp_cell(o), Cell(std::round(batch)), Cell(std::round(prompt + output / 2)),
             Cell(std::string("step_ms")), Cell(*tpot)},
            where};
}

/// llama.cpp's name of a weight format in model_type ("qwen2 7B Q4_K - Medium") as a library format.
std::string llama_cpp_weights(const CalibrateOptions& o, const std::string& model_type, const std::string& where) {
    if (!o.weight_dtype.empty()) return o.weight_dtype;
    static const std::pair<const char*, const char*> kFormats[] = {
        {"Q4_K - Medium", "q4_k_m"}, {"Q4_0", "q4_0"}, {"Q8_0", "q8_0"}, {"BF16", "bf16"}, {"F16", "fp16"}, {"F32", "fp32"}};
    for (const auto& [theirs, ours] : kFormats)
        if (model_type.ends_with(theirs)) return ours;
    throw Failure{kUsage, "--weight-dtype", fmt::format("{}: the format of '{}' is not one the library knows: give --weight-dtype", where, model_type)};
}

std::vector<Row> llama_bench_rows(const CalibrateOptions& o, const std::string& path, const nlohmann::json& runs) {
    std::vector<Row> rows;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const nlohmann::json& r = runs[i];
        const std::string where = fmt::format("{}[{}]", file_name(path), i);
        const double prompt = number_at(r, "n_prompt", where), gen = number_at(r, "n_gen", where);
        const double depth = r.contains("n_depth") ? number_at(r, "n_depth", where) : 0;
        const double tokens_per_s = number_at(r, "avg_ts", where);
        if ((prompt > 0) == (gen > 0) || !(tokens_per_s > 0)) continue;  // pp+tg runs mix the two: not one metric
        const std::string model_type = r.value("model_type", std::string());
        const std::string kv = !o.kv_dtype.empty() ? o.kv_dtype : r.value("type_k", std::string("f16")) == "f16" ? "fp16" : r.value("type_k", std::string());
        const bool prefill = prompt > 0;
        rows.push_back({{Cell(model_of(o, path, "")), Cell(gpu_of(o, path, r.value("gpu_info", std::string()))),
                         Cell(llama_cpp_weights(o, model_type, where)), Cell(kv), tp_cell(o), Cell(1.0),
                         Cell(prefill ? prompt : depth + std::round(gen / 2)),
                         Cell(std::string(prefill ? "ttft_ms" : "step_ms")),
                         Cell(prefill ? 1000 * prompt / tokens_per_s : 1000 / tokens_per_s)},
                        where});
    }
    return rows;
}

/// Pairs of `vllm bench latency` runs that differ only in output length give the decode step: (L2 - L1) / (O2 - O1),
/// at the mean context of the steps between them. The batch, input and output lengths come from the files' names
/// (vLLM's own naming in AMD's and others' scripts: ..._bs8_in128_out1024_...).
std::vector<Row> latency_rows(const CalibrateOptions& o, const std::vector<std::pair<std::string, nlohmann::json>>& files) {
    struct Run {
        std::string path;
        double batch, input, output, seconds;
    };
    std::map<std::pair<double, double>, std::vector<Run>> groups;
    static const std::regex kName(R"(bs(\d+)_in(\d+)_out(\d+))");
    for (const auto& [path, j] : files) {
        std::smatch m;
        const std::string name = file_name(path);
        if (!std::regex_search(name, m, kName))
            throw Failure{kUsage, path, "a vllm bench latency result whose name does not say bs<B>_in<I>_out<O>"};
        double seconds = 0;
        if (j.contains("percentiles") && j["percentiles"].contains("50") && j["percentiles"]["50"].is_number())
            seconds = j["percentiles"]["50"].get<double>();
        else
            seconds = number_at(j, "avg_latency", name);
        const double batch = std::stod(m[1]), input = std::stod(m[2]), output = std::stod(m[3]);
        groups[{batch, input}].push_back({path, batch, input, output, seconds});
    }
    std::vector<Row> rows;
    for (auto& [key, runs] : groups) {
        std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.output < b.output; });
        if (runs.size() < 2 || runs.front().output == runs.back().output)
            throw Failure{kUsage, runs.front().path,
                          "one vllm bench latency run gives no step: add a run of another output length (same batch and input)"};
        for (std::size_t i = 0; i + 1 < runs.size(); ++i) {
            const Run &a = runs[i], &b = runs[i + 1];
            if (a.output == b.output) continue;
            const double step_ms = (b.seconds - a.seconds) * 1000 / (b.output - a.output);
            rows.push_back({{Cell(model_of(o, a.path, "")), Cell(gpu_of(o, a.path)), text_or_empty(o.weight_dtype),
                             text_or_empty(o.kv_dtype), tp_cell(o), Cell(a.batch),
                             Cell(a.input + std::round((a.output + b.output) / 2)), Cell(std::string("step_ms")),
                             Cell(step_ms)},
                            fmt::format("{} to out{}", file_name(a.path), b.output)});
        }
    }
    return rows;
}

/// ROOFLINE_CALIBRATE's columns, as its table argument names them (the formula table's unit: "model, gpu, ...").
std::vector<std::string> calibration_columns() {
    std::vector<std::string> out;
    const std::string unit = formula_arg("ROOFLINE_CALIBRATE", "measurements").unit;
    for (std::size_t at = 0; at <= unit.size();) {
        const std::size_t comma = std::min(unit.find(", ", at), unit.size());
        out.push_back(unit.substr(at, comma - at));
        at = comma + 2;
    }
    return out;
}

/// Whether a header row names at least three of ROOFLINE_CALIBRATE's columns: the library then reads the rows below
/// it by those names (any order, other columns ignored), as it does in a sheet's range. The library's rule
/// (formulas_calibration.cpp, kNamedMin), told here only to decide whether a later file's header is kept in the one
/// table: a header the library would not read by name is left out, as it would be a bad row after the first.
bool names_columns(const std::vector<Cell>& header) {
    static const std::vector<std::string> columns = calibration_columns();
    std::size_t names = 0;
    for (const Cell& c : header) {
        std::string s = std::get<std::string>(c);
        s.erase(0, s.find_first_not_of(" \t"));
        s.erase(s.find_last_not_of(" \t") + 1);
        for (const std::string& name : columns)
            if (s.size() == name.size() &&
                std::equal(s.begin(), s.end(), name.begin(), [](char a, char b) { return std::tolower(a) == b; }))
                ++names;
    }
    return names >= 3;
}

/// CSV (RFC 4180: quoted fields, doubled quotes), its columns in the formula's order, or named by a header row in
/// any order (kept for the library to read: `mapped` is set); a header of other words is left out. Numbers stay text
/// here: the library reads a cell that reads whole as a number as that number.
std::vector<Row> csv_rows(const std::string& path, const std::string& text, bool& mapped) {
    std::vector<Row> rows;
    for (CsvRecord& record : csv_records(path, text)) {
        Row row{{}, std::move(record.where)};
        for (std::string& field : record.fields) row.cells.emplace_back(std::move(field));
        rows.push_back(std::move(row));
    }
    // A header, as the library tells one (its first row holds no number): kept where it names the columns (the
    // library maps the rows below it by their names), else left out, so that files after the first keep theirs out
    // of the one table too.
    auto is_number = [](const Cell& c) {
        const std::string& s = std::get<std::string>(c);
        char* end = nullptr;
        std::strtod(s.c_str(), &end);
        return !s.empty() && *end == '\0';
    };
    mapped = false;
    if (!rows.empty() && std::none_of(rows[0].cells.begin(), rows[0].cells.end(), is_number)) {
        if (names_columns(rows[0].cells)) mapped = true;
        else rows.erase(rows.begin());
    }
    return rows;
}

/// The kind of a file, from its text: JSON of llama-bench (an array of runs with avg_ts), of vllm bench latency
/// (latencies), of a serving benchmark (tpot or itl), JSONL of SGLang (one such object per line), or CSV.
std::string kind_of(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "csv";
    if (text[first] == '[') return "llama-bench";
    if (text[first] != '{') return "csv";
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) return "sglang";  // several objects: JSON lines
    if (j.contains("latencies") && j.contains("avg_latency")) return "vllm-latency";
    return "vllm-serve";
}

/// Writes the fitted profile as a named profile into the user folder (catalog/profile-NAME.json, a catalog with one
/// "profiles" entry: roofline_catalog_add_json()), and adds it to this run's library; returns the file's path.
std::string save(const CalibrateOptions& o, const std::string& profile) {
    const bool name_ok = o.save.size() <= 100 && std::all_of(o.save.begin(), o.save.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
    if (!name_ok || o.save.front() == '.')
        throw Failure{kBadValue, "--save", fmt::format("'{}': a name of letters, digits, '-', '_' and '.' (at most 100)", o.save)};
    std::string files;
    for (const std::string& f : o.files) files += (files.empty() ? "" : ", ") + file_name(f);
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    const nlohmann::json catalog{{"profiles", nlohmann::json::array({{{"id", o.save}, {"profile", profile},
                                                                       {"source", fmt::format("roofline calibrate of {} ({})", files, date)}}})}};
    const std::string text = catalog.dump(2) + "\n";
    if (roofline_catalog_add_json(text.c_str(), nullptr) != ROOFLINE_OK) throw Failure{kBadValue, "--save", roofline_errmsg()};
    const std::string folder = roofline_user_folder();
    if (folder.empty()) throw Failure{kIo, "--save", "no user folder: neither XDG_CONFIG_HOME nor HOME is set"};
    const std::filesystem::path dir = std::filesystem::path(folder) / "catalog";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::filesystem::path path = dir / ("profile-" + o.save + ".json");
    std::FILE* out = std::fopen(path.string().c_str(), "wb");
    if (!out || std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fclose(out) != 0)
        throw Failure{kIo, "--save", fmt::format("cannot write {}", path.string())};
    return path.string();
}

void run_calibrate(const CalibrateOptions& o) {
    std::vector<Row> rows;
    std::vector<std::pair<std::string, nlohmann::json>> latency_files;
    // After a CSV whose header mapped its columns, rows in the formula's order need the formula's own header again.
    bool mapped = false;
    auto in_order = [&] {
        if (!mapped) return;
        std::vector<Cell> header;
        for (const std::string& name : calibration_columns()) header.emplace_back(name);
        rows.push_back({std::move(header), "(the columns in order)"});
        mapped = false;
    };
    for (const std::string& path : o.files) {
        const std::string text = read_file(path);
        const std::string kind = o.format == "auto" ? kind_of(text) : o.format;
        try {
            if (kind != "csv" && kind != "vllm-latency") in_order();
            if (kind == "csv") {
                bool named = false;
                std::vector<Row> read_rows = csv_rows(path, text, named);
                if (!named) in_order();
                for (Row& r : read_rows) rows.push_back(std::move(r));
                mapped = named;
            } else if (kind == "llama-bench") {
                for (Row& r : llama_bench_rows(o, path, nlohmann::json::parse(text))) rows.push_back(std::move(r));
            } else if (kind == "vllm-latency") {
                latency_files.emplace_back(path, nlohmann::json::parse(text));
            } else if (kind == "vllm-serve") {
                const auto j = nlohmann::json::parse(text);
                rows.push_back(serving_row(o, path, j, file_name(path), j.value("model_id", std::string())));
            } else if (kind == "sglang") {
                std::size_t line = 0;
                for (std::size_t at = 0; at < text.size();) {
                    const std::size_t nl = std::min(text.find('\n', at), text.size());
                    const std::string record = text.substr(at, nl - at);
                    at = nl + 1;
                    ++line;
                    if (record.find_first_not_of(" \t\r") == std::string::npos) continue;
                    const auto j = nlohmann::json::parse(record);
                    rows.push_back(serving_row(o, path, j, fmt::format("{}:{}", file_name(path), line),
                                               j.value("model_id", j.value("model", std::string()))));
                }
            } else {
                throw Failure{kUsage, "--format", fmt::format("'{}' is not auto, csv, vllm-serve, sglang, llama-bench or vllm-latency", kind)};
            }
        } catch (const nlohmann::json::exception& e) {
            throw Failure{kBadValue, path, fmt::format("not the JSON of a {} result: {}", kind, e.what())};
        }
    }
    if (!latency_files.empty()) {
        in_order();
        for (Row& r : latency_rows(o, latency_files)) rows.push_back(std::move(r));
    }

    // The rows as one table argument: cells by tabs, rows by line breaks (roofline.h, ROOFLINE_TYPE_TABLE).
    std::string table;
    for (const Row& r : rows) {
        std::string line;
        for (std::size_t c = 0; c < r.cells.size(); ++c) {
            if (c) line += '\t';
            line += std::holds_alternative<double>(r.cells[c]) ? fmt::format("{}", std::get<double>(r.cells[c]))
                                                               : std::get<std::string>(r.cells[c]);
        }
        table += line + '\n';
    }
    const std::vector<Cell> args{Cell(table), Cell(o.base)};
    std::string profile;
    try {
        profile = call("ROOFLINE_CALIBRATE", args, Blame::kFormula).text();
    } catch (Failure& f) {  // "row 3, model: ..." of the rows read: said as the file and line it came from
        static const std::regex kRow(R"(row (\d+)([,:]))");
        std::smatch m;
        if (std::regex_search(f.message, m, kRow)) {
            const std::size_t row = std::stoul(m[1]);
            if (row >= 1 && row <= rows.size())
                f.message.replace(static_cast<std::size_t>(m.position(0)), static_cast<std::size_t>(m.length(0)),
                                  rows[row - 1].source + std::string(m[2]));
        }
        throw;
    }
    const Result checked = call("ROOFLINE_CALIBRATE_ROWS", args, Blame::kFormula);
    const std::string saved = o.save.empty() ? std::string() : save(o, profile);
    auto source = [&](double row) { return rows.at(static_cast<std::size_t>(row) - 1).source; };
    // ROOFLINE_CALIBRATE_ROWS' columns by their names in its header row (the formula table's), not their places.
    const std::size_t c_row = checked.column("row"), c_model = checked.column("model"), c_gpu = checked.column("gpu"),
                      c_metric = checked.column("metric"), c_measured = checked.column("measured_ms"),
                      c_predicted = checked.column("predicted_ms"), c_loo = checked.column("loo_ms"),
                      c_error = checked.column("error_percent"), c_loo_error = checked.column("loo_error_percent");

    if (o.json) {
        nlohmann::json out{{"profile", profile}, {"base_profile", o.base}, {"rows", nlohmann::json::array()}};
        for (std::size_t i = 1; i < checked.rows.size(); ++i) {
            const auto& r = checked.rows[i];
            out["rows"].push_back({{"source", source(std::get<double>(r[c_row]))},
                                   {"model", std::get<std::string>(r[c_model])},
                                   {"gpu", std::get<std::string>(r[c_gpu])},
                                   {"metric", std::get<std::string>(r[c_metric])},
                                   {"measured_ms", std::get<double>(r[c_measured])},
                                   {"predicted_ms", std::get<double>(r[c_predicted])},
                                   {"loo_ms", std::get<double>(r[c_loo])}});
        }
        if (!saved.empty()) out["saved"] = {{"profile", o.save}, {"file", saved}};
        fmt::print("{}\n", out.dump(2));
    } else {
        fmt::print("{}\n\n", profile);
        std::size_t width = std::string_view("measured row").size();
        for (const Row& r : rows) width = std::max(width, r.source.size());
        fmt::print("{:<{}} {:<18} {:<10} {:<8} {:>10} {:>10} {:>7} {:>10} {:>7}\n", "measured row", width, "model", "gpu",
                   "metric", "measured ms", "fitted", "error", "loo", "error");
        for (std::size_t i = 1; i < checked.rows.size(); ++i) {
            const auto& r = checked.rows[i];
            fmt::print("{:<{}} {:<18} {:<10} {:<8} {:>10.4g} {:>10.4g} {:>6.1f}% {:>10.4g} {:>6.1f}%\n",
                       source(std::get<double>(r[c_row])), width, std::get<std::string>(r[c_model]),
                       std::get<std::string>(r[c_gpu]), std::get<std::string>(r[c_metric]),
                       std::get<double>(r[c_measured]), std::get<double>(r[c_predicted]), std::get<double>(r[c_error]),
                       std::get<double>(r[c_loo]), std::get<double>(r[c_loo_error]));
        }
        if (!saved.empty())
            fmt::print("\nSaved as the profile '{}' in {}: every host that reads the user folder (Calc, Python, "
                       "the CLI) takes profile \"{}\".\n", o.save, saved, o.save);
    }
}

}  // namespace

void setup_calibrate(CLI::App& app) {
    auto o = std::make_shared<CalibrateOptions>();
    CLI::App* cmd = app.add_subcommand(
        "calibrate",
        fmt::format("Fit a profile on your measurements (ROOFLINE_CALIBRATE): CSV ({}; or a header naming them, in any "
                    "order), vllm bench serve / "
                    "benchmark_serving.py JSON, SGLang bench_serving JSONL, llama-bench -o json, or two vllm bench "
                    "latency runs of different output lengths",
                    formula_arg("ROOFLINE_CALIBRATE", "measurements").unit));
    cmd->add_option("files", o->files, "Measurement files; the kind of each is read from its text (--format to say it)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--format", o->format, "auto, csv, vllm-serve, sglang, llama-bench or vllm-latency")->capture_default_str();
    cmd->add_option("--model", o->model, "The model of files that do not say it (a catalog id or config.json text)");
    cmd->add_option("--gpu", o->gpu, "The GPU of files that do not say it (a catalog id)");
    // The defaults of what the files do not say: ROOFLINE_STEP_MS's, as the library fills in an empty cell.
    auto step_default = [](const char* arg) { return roofline_arg_default_string(&formula_arg("ROOFLINE_STEP_MS", arg)); };
    cmd->add_option("--tp", o->tp, fmt::format("GPUs in tensor parallel of files that do not say it (default {})", step_default("tp")));
    cmd->add_option("--batch", o->batch, "Sequences in flight of a serving run, where the file's max_concurrency is not it");
    cmd->add_option("--weight-dtype", o->weight_dtype,
                    fmt::format("Weight format of files that do not say it (default {})", step_default("weight_dtype")));
    cmd->add_option("--kv-dtype", o->kv_dtype,
                    fmt::format("KV cache format of files that do not say it (default {})", step_default("kv_dtype")));
    cmd->add_option("--save", o->save,
                    "Also write the profile under this name into the user folder (catalog/profile-NAME.json), where "
                    "Calc, Python and the CLI find it: profile NAME");
    o->base = formula_arg("ROOFLINE_CALIBRATE", "base_profile").default_text;
    cmd->add_option("--base", o->base, "The profile the fit starts from and keeps where the rows do not tell")->capture_default_str();
    add_json_flag(*cmd, o->json);
    cmd->callback([o] { run_calibrate(*o); });
}

}  // namespace cli

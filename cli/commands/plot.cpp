// roofline plot: a log-log roofline chart (SVG) with workloads on it: decode and prefill of a dense
// model from its parameter count, or (--model, --gpu) every operator of a catalog model's decode step
// and prefill on a catalog GPU.
#include <fmt/format.h>

#include <memory>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"
#include "../svg.hpp"

namespace cli {
namespace {

struct PlotOptions {
    Values values;
    std::string svg;
    CLI::App* cmd = nullptr;
};

/// The roof of a GPU of `tflops` and `tbs`, its balance point, and nothing on it yet.
PlotData roof_of(double tflops, double tbs) {
    PlotData chart;
    chart.tflops = tflops;
    chart.tbs = tbs;
    chart.balance = call("ROOFLINE_BALANCE", {tflops, tbs}).number();
    const double ai_min = 0.1, ai_max = 1e5, points = 200;
    for (const auto& row : call("ROOFLINE_ROOF", {tflops, tbs, ai_min, ai_max, points}).rows)
        chart.roof.push_back({std::get<double>(row[0]), std::get<double>(row[1])});
    return chart;
}

/// Adds a workload of arithmetic intensity `ai` at the height the roof allows it.
void add_point(PlotData& chart, const std::string& label, double ai) {
    chart.points.push_back({label, ai, call("ROOFLINE_ATTAINABLE_TFLOPS", {ai, chart.tflops, chart.tbs}).number()});
}

void write(const PlotData& chart, const std::string& path) {
    if (!write_svg(path, chart)) throw Failure{kIo, "--svg", fmt::format("cannot write {}", path)};
}

/// The operators of a catalog model's decode step and prefill on the roof of a catalog GPU.
void plot_operators(const Values& values, const std::string& path) {
    const std::string& gpu = values.text_at("gpu");
    PlotData chart = roof_of(call("ROOFLINE_GPU", {gpu, std::string("bf16_tflops")}).number(),
                             call("ROOFLINE_GPU", {gpu, std::string("hbm_tbs")}).number());
    auto add_operators = [&](const std::string& phase, const Result& breakdown) {
        for (const Operator& op : operators_of(breakdown)) {
            if (!(op.flop > 0) || !(op.bytes > 0)) continue;  // no intensity: e.g. an all-reduce without FLOP
            add_point(chart, phase + " " + op.name, call("ROOFLINE_AI", {op.flop, op.bytes}).number());
        }
    };
    add_operators("decode", values.call("ROOFLINE_STEP_BREAKDOWN"));
    Values prefill = values;  // one prompt
    prefill["batch"] = 1;
    add_operators("prefill", prefill.call("ROOFLINE_TTFT_BREAKDOWN"));
    chart.title = fmt::format("Roofline of {} (bf16 dense, HBM): operators of {}", gpu, model_label(values.text_at("model")));
    chart.subtitle = fmt::format("decode: batch {}, {} of context; prefill: 1 prompt of {}; {}", values.at("batch"),
                                 count_of(values.at("ctx"), "token"), count_of(values.at("prompt_tokens"), "token"),
                                 deployment(values, kv_cache_of(values)));
    write(chart, path);
}

/// Decode and prefill of a dense model from its parameter count.
void plot_dense(const Values& values, const std::string& path) {
    PlotData chart = roof_of(values.at("tflops"), values.at("bw_tbs"));
    add_point(chart, fmt::format("decode, batch {}, ctx {}", values.at("batch"), values.at("ctx")),
              values.call("ROOFLINE_DECODE_AI").number());
    Values single = values;
    single["batch"] = 1;
    single["ctx"] = 0;
    add_point(chart, "decode, batch 1, no KV", single.call("ROOFLINE_DECODE_AI").number());
    // A prefill of T tokens does the work of a decode step of batch T without KV: the weights are
    // read once and every token costs 2 FLOP per parameter.
    Values prefill = single;
    prefill["batch"] = values.at("prompt_tokens");
    add_point(chart, fmt::format("prefill, {}", count_of(values.at("prompt_tokens"), "token")),
              prefill.call("ROOFLINE_DECODE_AI").number());
    chart.title = fmt::format("Roofline: {} TFLOP/s, {} TB/s; {}B model at {}/parameter", chart.tflops, chart.tbs,
                              values.at("params_b"), count_of(values.at("bytes_per_param"), "byte"));
    write(chart, path);
}

void run_plot(const PlotOptions& options) {
    const CLI::App& cmd = *options.cmd;
    if (cmd.count("--model") || cmd.count("--gpu")) {
        if (!cmd.count("--model") || !cmd.count("--gpu")) throw Failure{kUsage, "", "--model and --gpu go together"};
        plot_operators(options.values, options.svg);
        return;
    }
    if (!cmd.count("--params-b") || !cmd.count("--bw-tbs")) throw Failure{kUsage, "", "give --model and --gpu, or --params-b and --bw"};
    plot_dense(options.values, options.svg);
}

}  // namespace

void setup_plot(CLI::App& app) {
    auto options = std::make_shared<PlotOptions>();
    Values& values = options->values;
    CLI::App* cmd = options->cmd = app.add_subcommand("plot", "A log-log roofline chart (SVG) with decode and prefill on it");
    add_formula_options(*cmd, values, "ROOFLINE_DECODE_MS");
    add_formula_options(*cmd, values, "ROOFLINE_STEP_MS");
    values["prompt_tokens"] = 2000;
    cmd->add_option("--prompt-tokens,--tokens", values["prompt_tokens"], "Prompt tokens of the prefill")->capture_default_str();
    cmd->add_option("--svg", options->svg, "Where to write the chart")->required();
    // Either a dense model from its parameter count (--params-b, --bw) or a catalog model on a catalog
    // GPU (--model, --gpu, and every option of `roofline step`): neither set is required alone.
    const char* dense_options[] = {"--params-b", "--bw-tbs", "--tflops", "--kv-kib-per-token", "--bytes-per-param"};
    const char* catalog_options[] = {"--weight-dtype", "--kv-dtype", "--tp", "--profile", "--ep", "--dp-attention", "--pp"};
    for (const char* name : {"--params-b", "--bw-tbs", "--model", "--gpu"}) cmd->get_option(name)->required(false);
    for (const char* dense : dense_options) {
        cmd->get_option("--model")->excludes(dense);
        cmd->get_option("--gpu")->excludes(dense);
    }
    for (const char* catalog : catalog_options)
        for (const char* dense : dense_options) cmd->get_option(catalog)->excludes(dense);
    cmd->get_option("--batch")->required(false)->default_val(1);
    cmd->get_option("--ctx")->required(false)->default_val(0);
    cmd->callback([options] { run_plot(*options); });
}

}  // namespace cli
